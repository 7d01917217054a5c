import Foundation
import SocialLogin
import Testing

@testable import SocialLoginBench

/// The chaos bench's small parts: the worker's and the parent's argument parsing, the
/// outcome lines and how the parent counts them, and the figure line.
@Suite struct ChaosBenchTests {
  @Test func workerOptionsRoundTripThroughTheirArguments() throws {
    let options = try #require(
      ChaosWorker.Options([
        "--store", "redis://127.0.0.1:6390", "--prefix", "p", "--token-endpoint",
        "http://127.0.0.1:5000/token", "--subject", "chaos-3", "--lease-ttl-ms", "1500",
        "--claim-ttl-ms", "2500", "--grace-ms", "30000",
      ]))
    #expect(options.store == "redis://127.0.0.1:6390")
    #expect(options.prefix == "p")
    #expect(options.subject == "chaos-3")
    #expect(options.leaseTTL == .milliseconds(1500))
    #expect(options.claimTTL == .milliseconds(2500))
    #expect(options.grace == .milliseconds(30000))
    #expect(ChaosWorker.Options(options.arguments) == options)
  }

  @Test func workerOptionsRefuseWhatTheyCannotUse() {
    let valid = [
      "--store", "file:/tmp/x", "--token-endpoint", "http://127.0.0.1:5000/token", "--subject",
      "s",
    ]
    #expect(ChaosWorker.Options(valid) != nil)
    for broken in [
      [], ["--store"], valid + ["--grace-ms"], valid + ["--grace-ms", "-1"],
      valid + ["--lease-ttl-ms", "0"], valid + ["--claim-ttl-ms", "soon"],
      valid + ["--unknown", "1"], Array(valid.dropLast(2)),
      ["--store", "file:/tmp/x", "--token-endpoint", "ftp://h/token", "--subject", "s"],
      ["--store", "", "--token-endpoint", "http://h/token", "--subject", "s"],
    ] {
      #expect(ChaosWorker.Options(broken) == nil, "\(broken)")
    }
  }

  @Test func benchOptionsParseTheStoreForms() throws {
    #expect(try #require(ChaosBench.Options([])).store == "redis")
    #expect(try #require(ChaosBench.Options(["--store", "/tmp/d"])).store == "file:/tmp/d")
    #expect(try #require(ChaosBench.Options(["--store", "file:/tmp/d"])).store == "file:/tmp/d")
    let redis = try #require(
      ChaosBench.Options([
        "--store", "redis://127.0.0.1:7000", "--duration", "30", "--replicas", "3",
        "--grace-ms", "0",
      ]))
    #expect(redis.store == "redis://127.0.0.1:7000")
    #expect(redis.duration == .seconds(30))
    #expect(redis.replicas == 3)
    #expect(redis.grace == .zero)
    for broken in [
      ["--store", "memcached://x"], ["--duration", "0"], ["--replicas", "0"],
      ["--replicas", "1000"], ["--grace-ms", "x"], ["--duration"], ["chaos"],
    ] {
      #expect(ChaosBench.Options(broken) == nil, "\(broken)")
    }
  }

  @Test func outcomeLinesNameTheSignOutReasonInOneField() {
    #expect(ChaosWorker.outcomeLine(subject: "s", .success(())) == "outcome s refreshed")
    let lost = AuthError(.signedOut, "lost", signOutReason: .refreshResponseLost)
    #expect(
      ChaosWorker.outcomeLine(subject: "s", .failure(lost))
        == "outcome s signedout refreshResponseLost")
    let rejected = AuthError(
      .signedOut, "x", signOutReason: .providerRejected(code: "bad grant"))
    #expect(
      ChaosWorker.outcomeLine(subject: "s", .failure(rejected))
        == "outcome s signedout providerRejected:bad_grant")
    #expect(
      ChaosWorker.outcomeLine(subject: "s", .failure(AuthError(.timedOut, "slow")))
        == "outcome s error \(AuthError.Code.timedOut.rawValue)")
  }

  @Test func theParentCountsEachLostSessionOnce() {
    var tally = ChaosBench.Tally()
    var lost: Set<String> = []
    let lines = [
      "outcome chaos-0 refreshed", "outcome chaos-0 refreshed", "garbage", "outcome chaos-0",
      "outcome chaos-0 error timedOut", "outcome chaos-0 signedout refreshResponseLost",
      "outcome chaos-0 signedout reuseDetected", "outcome chaos-1 signedout reuseDetected",
      "outcome chaos-1 missing",
    ]
    for line in lines {
      if let gone = tally.count(line: line, lostAlready: lost) { lost.insert(gone) }
    }
    #expect(tally.refreshes == 2)
    #expect(tally.sessionsLost == 2)
    #expect(tally.lostAsRefreshResponseLost == 1)
    #expect(tally.lostReasons == ["refreshResponseLost": 1, "reuseDetected": 1])
    #expect(tally.errors == ["timedOut": 1])
  }

  @Test func theFigureLineHasEveryCountInOrder() {
    var tally = ChaosBench.Tally()
    tally.store = "redis"
    tally.replicas = 4
    tally.durationSeconds = 30
    tally.graceMilliseconds = 30000
    tally.refreshes = 120
    tally.kills = 50
    tally.restarts = 3
    tally.sessionsLost = 2
    tally.lostAsRefreshResponseLost = 1
    tally.lostReasons = ["reuseDetected": 1, "refreshResponseLost": 1]
    tally.tokensSpentTwice = 2
    tally.spentTwiceAfterDelivery = 1
    tally.replaysWithinGrace = 7
    tally.familiesRevoked = 2
    #expect(
      tally.figure.line
        == "chaos store=redis replicas=4 duration_s=30 grace_ms=30000 refreshes=120 kills=50 "
        + "restarts=3 sessions_lost=2 lost_as_refresh_response_lost=1 tokens_spent_twice=2 "
        + "spent_twice_after_delivery=1 replays_within_grace=7 family_revoked=2 "
        + "lost_reasons=refreshResponseLost:1,reuseDetected:1 errors=none")
    tally.restarts = nil
    tally.graceMilliseconds = nil
    #expect(tally.figure.value("restarts") == "n/a")
    #expect(tally.figure.value("grace_ms") == "none")
  }

  @Test func theCollectorKeepsOnlyCompleteLinesPerWorker() {
    let collector = LineCollector()
    let a = ObjectIdentifier(collector)
    let b = ObjectIdentifier(ChaosBenchTests.self)
    collector.append("outcome s ref", from: a)
    collector.append("outcome t refreshed\noutcome t", from: b)
    #expect(collector.drain() == ["outcome t refreshed"])
    collector.append("reshed\n", from: a)
    collector.append(" missing\n\n", from: b)
    #expect(collector.drain() == ["outcome s refreshed", "outcome t missing"])
    #expect(collector.drain() == [])
  }
}
