import Foundation
import Testing

@testable import SocialLogin

extension TransportTests {
  @Suite(.timeLimit(.minutes(5))) struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT.
    static let reference = Date(timeIntervalSince1970: 784_111_777)

    @Test(
      "parses the three RFC 9110 forms",
      arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "sun, 06 nov 1994 08:49:37 GMT",
      ])
    func parsesAllForms(value: String) {
      #expect(HTTPDate.parse(value) == Self.reference)
    }

    @Test func rfc850YearsBelow70AreThisCentury() {
      #expect(
        HTTPDate.parse("Thursday, 01-Jan-26 00:00:00 GMT")
          == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test(
      "rejects garbage",
      arguments: [
        "", "garbage", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "1994-11-06T08:49:37Z", "Sun Nov 6 08:49:37", "120",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
      ])
    func rejectsGarbage(value: String) {
      #expect(HTTPDate.parse(value) == nil)
    }

    @Test func serverDateComesFromTheDateHeader() {
      let response = TransportResponse(
        status: 200, headers: ["date": "Sun, 06 Nov 1994 08:49:37 GMT"])
      #expect(response.serverDate == Self.reference)
      #expect(TransportResponse(status: 200, headers: ["Date": "soon"]).serverDate == nil)
    }
  }

  @Suite(.timeLimit(.minutes(5))) struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test func secondsForm() {
      let response = TransportResponse(status: 503, headers: ["Retry-After": " 120 "])
      #expect(response.retryAfter(now: now) == now.addingTimeInterval(120))
    }

    @Test func httpDateFormWithoutServerDate() {
      let at = Date(timeIntervalSince1970: 1_000_300)
      let response = TransportResponse(
        status: 429, headers: ["Retry-After": "Mon, 12 Jan 1970 13:51:40 GMT"])
      #expect(response.retryAfter(now: now) == at)
    }

    @Test func httpDateFormIsShiftedByTheServerClockOffset() {
      // The server's clock runs 100 s ahead of ours: its "in 300 s" is our now + 300.
      let response = TransportResponse(
        status: 503,
        headers: [
          "Date": "Mon, 12 Jan 1970 13:48:20 GMT",  // now + 100 on the server clock
          "Retry-After": "Mon, 12 Jan 1970 13:55:00 GMT",  // server now + 400
        ])
      #expect(response.retryAfter(now: now) == now.addingTimeInterval(400))
    }

    @Test(arguments: ["", "-5", "1.5", "soon", "Sun, 06 Nov 1994 08:49:37"])
    func invalidValuesGiveNil(value: String) {
      let response = TransportResponse(status: 503, headers: ["Retry-After": value])
      #expect(response.retryAfter(now: now) == nil)
    }

    @Test func missingHeaderGivesNil() {
      #expect(TransportResponse(status: 503).retryAfter(now: now) == nil)
    }
  }
}
