#define _GNU_SOURCE
#include "CChildProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

extern char **environ;

// One spawn at a time, carried out by the spawner thread (see the header).
struct request {
  const char *path;
  char *const *argv;
  const char *output_path;
  pid_t result;
  int done;
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int start_error;
static pthread_mutex_t serial = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct request *pending;

// In the child, between fork and execve: async-signal-safe calls only.
static void child(const struct request *r, pid_t parent, int report) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died before the line above: then nothing would kill this child.
  if (getppid() != parent) _exit(127);
#endif
  struct sigaction dfl = {0};
  dfl.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; s++) {
    if (s != SIGKILL && s != SIGSTOP) sigaction(s, &dfl, 0);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, 0);
  int in = open("/dev/null", O_RDONLY);
  int out = open(r->output_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int error = 0;
  if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
    error = errno;
  } else {
    // Nothing else of the test process leaks into the child (sockets, other tests' pipes).
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */) != 0)
#endif
    {
      for (int fd = 3; fd < 65536; fd++) {
        if (fd != report) fcntl(fd, F_SETFD, FD_CLOEXEC);
      }
    }
    execve(r->path, r->argv, environ);
    error = errno;
  }
  ssize_t ignored = write(report, &error, sizeof error);
  (void)ignored;
  _exit(127);
}

static pid_t spawn(const struct request *r) {
  int report[2];
#ifdef __linux__
  if (pipe2(report, O_CLOEXEC) != 0) return -errno;
#else
  if (pipe(report) != 0) return -errno;
  fcntl(report[0], F_SETFD, FD_CLOEXEC);
  fcntl(report[1], F_SETFD, FD_CLOEXEC);
#endif
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) child(r, parent, report[1]);
  int fork_error = errno;
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    return -fork_error;
  }
  // End of file: the execve succeeded (the pipe closed on exec). An errno: it failed.
  int error = 0;
  ssize_t n;
  do {
    n = read(report[0], &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == (ssize_t)sizeof error) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return -(error != 0 ? error : ECHILD);
  }
  return pid;
}

static void *spawner(void *unused) {
  (void)unused;
  // Process signals are for the other threads; the child resets its mask anyway.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, 0);
  pthread_mutex_lock(&lock);
  for (;;) {
    while (pending == 0 || pending->done) pthread_cond_wait(&changed, &lock);
    struct request *r = pending;
    pthread_mutex_unlock(&lock);
    pid_t result = spawn(r);
    pthread_mutex_lock(&lock);
    r->result = result;
    r->done = 1;
    pthread_cond_broadcast(&changed);
  }
  return 0;
}

static void start_spawner(void) {
  pthread_t thread;
  start_error = pthread_create(&thread, 0, spawner, 0);
  if (start_error == 0) pthread_detach(thread);
}

pid_t cchildprocess_spawn(const char *path, char *const argv[], const char *output_path) {
  pthread_once(&once, start_spawner);
  if (start_error != 0) return -start_error;
  struct request r = {path, argv, output_path, 0, 0};
  pthread_mutex_lock(&serial);
  pthread_mutex_lock(&lock);
  pending = &r;
  pthread_cond_broadcast(&changed);
  while (!r.done) pthread_cond_wait(&changed, &lock);
  pending = 0;
  pthread_mutex_unlock(&lock);
  pthread_mutex_unlock(&serial);
  return r.result;
}

int cchildprocess_dies_with_parent(void) {
#ifdef __linux__
  return 1;
#else
  return 0;
#endif
}

#include <spawn.h>

pid_t cchildprocess_spawn_with(const char *path, char *const argv[], char *const envp[],
                               int stdin_fd, int stdout_fd, int stderr_fd) {
  posix_spawn_file_actions_t actions;
  int error = posix_spawn_file_actions_init(&actions);
  if (error != 0) return -error;
  // dup2 onto 0, 1, 2 (a descriptor duplicated onto itself keeps its close-on-exec flag, so
  // the sources are always above 2: the caller opens them after 0, 1 and 2 exist).
  if ((error = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0)) == 0 &&
      (error = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1)) == 0 &&
      (error = posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2)) == 0) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  }
  pid_t pid = -1;
  if (error == 0) {
    posix_spawnattr_t attributes;
    error = posix_spawnattr_init(&attributes);
    if (error == 0) {
      sigset_t none, all;
      sigemptyset(&none);
      sigfillset(&all);
      posix_spawnattr_setsigmask(&attributes, &none);
      posix_spawnattr_setsigdefault(&attributes, &all);
      posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
      error = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
      posix_spawnattr_destroy(&attributes);
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  return error == 0 ? pid : -error;
}
