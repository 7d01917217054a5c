import Testing

/// Every suite that talks to the shared Glewlwyd server, run one test at a time: Glewlwyd's
/// SQLite database answers concurrent logins with HTTP 500 now and then (seen between the CLI
/// and the login suites when they ran side by side).
@Suite(.serialized, .timeLimit(.minutes(10))) enum GlewlwydSuites {}
