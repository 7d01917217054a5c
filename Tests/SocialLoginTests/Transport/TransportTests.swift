import Testing

/// The transport layer's tests, grouped so that `swift test --filter Transport` runs them all.
@Suite(.timeLimit(.minutes(5))) enum TransportTests {}
