#ifndef CCHILDPROCESS_H
#define CCHILDPROCESS_H

#include <sys/types.h>

/// Starts `path` (an absolute path) with `argv` (NULL-terminated, `argv[0]` included) and this
/// process's environment, stdin from /dev/null, stdout and stderr appended to `output_path`
/// (created, truncated), every other descriptor closed, the signal mask empty and every
/// signal's disposition the default.
///
/// On Linux the child is killed (SIGKILL) by the kernel when this process dies, however it
/// dies: it is forked from a thread of its own that lives as long as the process (the parent
/// death signal fires when the forking *thread* exits, and pool threads come and go).
///
/// Returns the child's pid, or a negated errno: of the fork, or of the child's execve (the
/// child then exited with 127 and was reaped).
pid_t cchildprocess_spawn(const char *path, char *const argv[], const char *output_path);

/// Starts `path` with `argv` and `envp` (both NULL-terminated) with `posix_spawn`: the
/// descriptors `stdin_fd`, `stdout_fd` and `stderr_fd` (each above 2) become 0, 1 and 2, every
/// other descriptor is closed in the child (glibc 2.34 and later), the signal mask is empty and
/// every signal's disposition the default. For short-lived children a test waits for itself;
/// unlike ``cchildprocess_spawn`` they do not die with this process.
///
/// It exists because Foundation's `Process.run()` on Linux crashed (a `memcpy` past its buffer)
/// when the test process had about 1,380 descriptors open.
///
/// Returns the child's pid, or a negated errno.
pid_t cchildprocess_spawn_with(const char *path, char *const argv[], char *const envp[],
                               int stdin_fd, int stdout_fd, int stderr_fd);

/// Whether children die with this process on this system (Linux: PR_SET_PDEATHSIG).
int cchildprocess_dies_with_parent(void);

#endif
