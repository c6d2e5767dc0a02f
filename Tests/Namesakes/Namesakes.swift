// Stand-ins for the types other packages of the Swift server ecosystem declare under the names the
// SDK uses: swift-http-types (`HTTPRequest`, `HTTPResponse`, `HTTPFields`), AsyncHTTPClient
// (`HTTPClient`), swift-openapi-runtime (`HTTPBody`), Vapor (`Middleware`) and Alamofire and Get
// (`HTTPMethod`). EcosystemNamesTests imports this module beside the SDK, as a server app does, and
// shows the documented way of writing code that uses both (ARCHITECTURE.md, "Names in the
// ecosystem"). Only the names matter here; each type carries just enough to be used.

/// A request with a method and a path, as swift-http-types spells it.
public struct HTTPRequest: Sendable, Equatable {
  /// The request's method.
  public var method: HTTPMethod
  /// The request's path.
  public var path: String

  /// A request for `path` with `method`.
  public init(method: HTTPMethod, path: String) {
    self.method = method
    self.path = path
  }
}

/// A response with a status code.
public struct HTTPResponse: Sendable, Equatable {
  /// The response's status code.
  public var status: Int

  /// A response with `status`.
  public init(status: Int) {
    self.status = status
  }
}

/// Header fields as name–value pairs.
public struct HTTPFields: Sendable, Equatable {
  /// The fields, in order.
  public var pairs: [(String, String)] {
    get { storage.map { ($0.name, $0.value) } }
    set { storage = newValue.map { Pair(name: $0.0, value: $0.1) } }
  }

  private struct Pair: Sendable, Equatable {
    var name: String
    var value: String
  }
  private var storage: [Pair] = []

  /// No fields.
  public init() {}
}

/// A request method, as Alamofire and Get spell it.
public struct HTTPMethod: Sendable, Equatable {
  /// The method's name.
  public var rawValue: String

  /// A method named `rawValue`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// GET.
  public static let get = HTTPMethod(rawValue: "GET")
}

/// A body as a byte buffer, as swift-openapi-runtime spells it.
public struct HTTPBody: Sendable, Equatable {
  /// The bytes.
  public var bytes: [UInt8]

  /// A body of `bytes`.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }
}

/// A client class, as AsyncHTTPClient spells it.
public final class HTTPClient: Sendable {
  /// A name, to tell clients apart.
  public let name: String

  /// A client called `name`.
  public init(name: String) {
    self.name = name
  }
}

/// A server's middleware, as Vapor spells it: it answers a request, or hands it on.
public protocol Middleware: Sendable {
  /// Answers `request`, calling `next` to hand it on.
  func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse
}
