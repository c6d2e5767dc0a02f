import Foundation
import Testing

@testable import EndpointCurl
@testable import EndpointTransport

/// Both clients have one default: no proxy from the environment unless the caller asks for one,
/// so a service's route never changes because `http_proxy` is set. Foundation on Linux cannot
/// be told to ignore the variables, so the URLSession client refuses what they would route.
/// Run in a child process, since the variables would reach every client of the test process.
@Suite(.tags(.loopbackServers), .requiresLoopbackServers) struct ProxyEnvironmentTests {
  @Test func theCurlClientIgnoresProxyVariablesByDefault() async throws {
    let target = try TestServers.httpbin.adding("/get")
    // Nothing listens on port 9: a request sent through this proxy fails.
    let deadProxy = "http://127.0.0.1:9"
    var environment = ["no_proxy": "", "NO_PROXY": ""]
    for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
      environment[name] = deadProxy
    }
    let report = try await Probe.run(
      [
        "storm", "--client", "curl", "--url", target.absoluteString, "--count", "0",
        "--check", target.absoluteString,
      ],
      within: .seconds(60),
      environment: environment
    )
    #expect(report.outcomes.isEmpty)
  }

  /// One GET of the fault server's `/echo` from a child process whose environment names the
  /// fault server itself as the proxy in `variable`: the echo's request target says whether the
  /// request went through it (absolute through a proxy).
  static func fetchEcho(
    over transport: TransportUnderTest,
    variable: String,
    askingForIt: Bool = false
  ) async throws -> String {
    let fault = try TestServers.fault.adding("/")
    let target = try TestServers.fault.adding("/echo")
    let proxy = "http://\(fault.host!):\(fault.port!)"
    var arguments = ["fetch", "--client", transport.rawValue, "--url", target.absoluteString]
    if askingForIt { arguments.append("--environment-proxy") }
    let report = try await Probe.run(
      arguments,
      within: .seconds(60),
      environment: ["no_proxy": "", "NO_PROXY": "", variable: proxy]
    )
    return try #require(report.outcomes.keys.first)
  }

  @Test(arguments: TransportUnderTest.allCases, ["http_proxy", "all_proxy", "ALL_PROXY"])
  func neitherClientGoesThroughTheEnvironmentsProxyUnasked(
    transport: TransportUnderTest, variable: String
  ) async throws {
    let outcome = try await Self.fetchEcho(over: transport, variable: variable)
    switch transport {
    case .curl:
      #expect(outcome.hasPrefix("status 200"), "\(outcome)")
      #expect(outcome.contains(#""target": "/echo""#), "\(outcome)")
    case .urlSession:
      // Nothing was sent: the request was refused before Foundation could route it.
      #expect(outcome == "InvalidRequest.unsupported", "\(outcome)")
    }
  }

  @Test(arguments: TransportUnderTest.allCases, ["http_proxy", "all_proxy"])
  func bothClientsGoThroughTheEnvironmentsProxyWhenAsked(
    transport: TransportUnderTest, variable: String
  ) async throws {
    let outcome = try await Self.fetchEcho(over: transport, variable: variable, askingForIt: true)
    let target = try TestServers.fault.adding("/echo")
    #expect(outcome.hasPrefix("status 200"), "\(outcome)")
    #expect(outcome.contains(#""target": "\#(target.absoluteString)""#), "\(outcome)")
  }

  /// libcurl never reads `HTTP_PROXY` (a CGI program finds a client's `Proxy:` field there):
  /// both clients connect directly.
  @Test(arguments: TransportUnderTest.allCases)
  func uppercaseHTTPProxyIsNoProxy(transport: TransportUnderTest) async throws {
    let outcome = try await Self.fetchEcho(over: transport, variable: "HTTP_PROXY")
    #expect(outcome.contains(#""target": "/echo""#), "\(outcome)")
  }

  /// A proxy the caller names works: the curl client's `Proxy.url`, here the fault server,
  /// which answers for a host that does not exist.
  @Test func aConfiguredProxyCarriesTheRequest() async throws {
    let fault = try TestServers.fault.adding("/")
    let proxy = try #require(URL(string: "http://\(fault.host!):\(fault.port!)"))
    let client = try CurlHTTPClient(configuration: .init(proxy: .url(proxy)))
    let target = try #require(URL(string: "http://proxied.invalid/echo"))
    let (response, echo) = try await sendForJSON(client, HTTPRequest(method: .get, url: target))
    #expect(response.status == 200)
    #expect(echo["target"] as? String == "http://proxied.invalid/echo")
  }
}

/// libcurl's rules for the environment's proxy, as the URLSession client reads them to refuse
/// what Foundation would route.
@Suite struct EnvironmentProxyRuleTests {
  static func variable(_ url: String, _ environment: [String: String]) -> String? {
    EnvironmentProxy.variable(for: URL(string: url)!) { environment[$0] }
  }

  @Test func theSchemesVariableThenAllProxy() {
    let proxy = "http://proxy:3128"
    #expect(Self.variable("http://a.example/", ["http_proxy": proxy]) == "http_proxy")
    #expect(Self.variable("http://a.example/", ["HTTP_PROXY": proxy]) == nil)
    #expect(Self.variable("https://a.example/", ["HTTPS_PROXY": proxy]) == "HTTPS_PROXY")
    #expect(Self.variable("https://a.example/", ["http_proxy": proxy]) == nil)
    #expect(Self.variable("http://a.example/", ["ALL_PROXY": proxy]) == "ALL_PROXY")
    // An empty variable of the scheme means no proxy, and all_proxy is not read then.
    #expect(Self.variable("http://a.example/", ["http_proxy": "", "all_proxy": proxy]) == nil)
  }

  @Test func noProxyExemptsHostsDomainsAndNetworks() {
    #expect(EnvironmentProxy.bypasses("anything", "*"))
    #expect(EnvironmentProxy.bypasses("api.example.com", "localhost, .example.com"))
    #expect(EnvironmentProxy.bypasses("API.Example.com", "example.com"))
    #expect(!EnvironmentProxy.bypasses("notexample.com", "example.com"))
    #expect(EnvironmentProxy.bypasses("127.0.0.1", "localhost,127.0.0.1"))
    #expect(EnvironmentProxy.bypasses("10.1.2.3", "10.0.0.0/8"))
    #expect(!EnvironmentProxy.bypasses("11.1.2.3", "10.0.0.0/8"))
    #expect(!EnvironmentProxy.bypasses("127.0.0.1", ""))
    let proxy = "http://proxy:3128"
    #expect(
      Self.variable("http://127.0.0.1:8/", ["http_proxy": proxy, "NO_PROXY": "127.0.0.1"]) == nil)
  }
}
