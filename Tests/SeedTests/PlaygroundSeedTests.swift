// The usage half of the Endpoint playground (`shared/seeds/000_…`), as written, against a
// loopback server that answers like jsonplaceholder's /todos. The playground's own definitions
// of Endpoint, RequestPayload, ResponseParser, HTTPClient and UnexpectedResponse are the SDK's.
// Adapted: `Sendable` on `Item`, the host of the URLs, and the `Task {}` body as a test that
// records the errors the playground prints.

import EndpointCore
import EndpointJSON
import EndpointTestSupport
import EndpointTransport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct Item: Codable, Sendable {
  let id: Int?
  var title: String
}

/// Attach factory methods for Endpoints to types of relevance.
extension Item {
  static func all() -> Endpoint<[Item]> {
    Endpoint(
      url: URL(string: "\(jsonPlaceholder)/todos")!,
      method: "GET",
      payload: .empty(),
      parser: .json()
    )
  }

  static func with(id: Int) -> Endpoint<Item> {
    struct Todo: Decodable {
      let id: Int
      let userId: Int
      let title: String
      let completed: Bool
    }

    return Endpoint<Todo>(
      url: URL(string: "\(jsonPlaceholder)/todos/\(id)")!,
      method: "GET",
      payload: .empty(),
      parser: .json()
    ).map { todo in
      Item(id: todo.id, title: todo.title)
    }
  }

  func save() throws -> Endpoint<Item> {
    if let id = self.id {
      Endpoint(
        url: URL(string: "\(jsonPlaceholder)/todos/\(id)")!,
        method: "PUT",
        payload: try .json(encoding: self),
        parser: .json()
      )
    } else {
      Endpoint(
        url: URL(string: "\(jsonPlaceholder)/todos")!,
        method: "POST",
        payload: try .json(encoding: self),
        parser: .json()
      )
    }
  }
}

/// Alternatively, attach factory methods for Endpoints to dedicated "namespaces".
enum ItemEndpoints {
  static func all() -> Endpoint<[Item]> {
    Endpoint(
      url: URL(string: "\(jsonPlaceholder)/todos")!,
      method: "GET",
      payload: .empty(),
      parser: .json()
    )
  }

  static func with(id: Int) -> Endpoint<Item> {
    struct Todo: Decodable {
      let id: Int
      let userId: Int
      let title: String
      let completed: Bool
    }

    return Endpoint<Todo>(
      url: URL(string: "\(jsonPlaceholder)/todos/\(id)")!,
      method: "GET",
      payload: .empty(),
      parser: .json()
    ).map { todo in
      Item(id: todo.id, title: todo.title)
    }
  }

  static func save(_ item: Item) throws -> Endpoint<Item> {
    if let id = item.id {
      Endpoint(
        url: URL(string: "\(jsonPlaceholder)/todos/\(id)")!,
        method: "PUT",
        payload: try .json(encoding: item),
        parser: .json()
      )
    } else {
      Endpoint(
        url: URL(string: "\(jsonPlaceholder)/todos")!,
        method: "POST",
        payload: try .json(encoding: item),
        parser: .json()
      )
    }
  }
}

@Suite struct PlaygroundSeedTests {
  @Test func playgroundUsageRunsAsWritten() async throws {
    do {
      let httpClient: HTTPClient = URLSession.shared

      var allItemsEndpoint = Endpoint<[Item]>(
        url: URL(string: "\(jsonPlaceholder)/todos")!,
        method: "GET",
        payload: .empty(),
        parser: .json()
      )  // Construct Endpoints inline
      // Construct Endpoints using factory methods on the type of interest
      allItemsEndpoint = Item.all()
      // Construct Endpoints using factory methods under dedicated "namespace"
      allItemsEndpoint = ItemEndpoints.all()

      let items = try await httpClient.call(allItemsEndpoint)
      print("Items:", items)
      #expect(items.map(\.title) == ["Buy milk", "Write docs"])

      // ...

      var newItem = Item(id: nil, title: "New Item")

      newItem = try await httpClient.call(newItem.save())
      print("New item:", newItem)
      #expect(newItem.id == 201 && newItem.title == "New Item")

      // ...

      let previousItemId = newItem.id! - 1
      let previousItem = try await httpClient.call(Item.with(id: previousItemId))
      print("Previous item:", previousItem)
      #expect(previousItem.id == 200 && previousItem.title == "Todo 200")

      // ...

      var changedItem = previousItem
      changedItem.title = "Updated Item"

      let updatedItem = try await httpClient.call(changedItem.save())
      print("Updated item:", updatedItem)
      #expect(updatedItem.id == 200 && updatedItem.title == "Updated Item")

      let saved = try await httpClient.call(ItemEndpoints.save(changedItem))
      #expect(saved.title == "Updated Item")
    } catch let unexpectedResponse as UnexpectedResponse {
      print("Unexpected response:", unexpectedResponse)
      print(
        "Unexpected response (body):", String(data: unexpectedResponse.data, encoding: .utf8) ?? "")
      Issue.record(unexpectedResponse)
    } catch {
      print("Error:", error)
      Issue.record(error)
    }
  }

  @Test func playgroundCatchReadsTheUnexpectedBodyAsData() async throws {
    let httpClient: HTTPClient = URLSession.shared
    do {
      _ = try await httpClient.call(ItemEndpoints.with(id: 404))
      Issue.record("a 404 was parsed")
    } catch let unexpectedResponse as UnexpectedResponse {
      print("Unexpected response:", unexpectedResponse)
      let text = String(data: unexpectedResponse.data, encoding: .utf8) ?? ""
      #expect(unexpectedResponse.status == 404)
      #expect(text == #"{"error":"no todo 404"}"#)
    }
  }

  @Test func playgroundParsersAcceptTheStatusesListed() throws {
    let void = ResponseParser<Void>.void(expecting: [200])
    #expect(void.acceptedStatus.contains(200) && !void.acceptedStatus.contains(204))
    let json = ResponseParser<Item>.json(expecting: [200, 201])
    #expect(json.acceptedStatus.contains(201) && !json.acceptedStatus.contains(202))
    #expect(RequestPayload.empty().body == nil && RequestPayload.empty().contentType == nil)
  }
}

/// The playground's server, on loopback: started on first use, for the whole test process.
let jsonPlaceholder: String = {
  do {
    let server = try CaptureServer(respond: TodoServer.answer)
    return "http://127.0.0.1:\(server.port)"
  } catch {
    return "http://127.0.0.1:1"
  }
}()

/// Answers like jsonplaceholder.typicode.com's `/todos`: a fixed list, `POST` answers 201 with id
/// 201, `PUT` echoes the body, `GET /todos/404` is a 404.
enum TodoServer {
  @Sendable static func answer(_ request: CaptureServer.Request) -> CaptureServer.Answer {
    let parts = request.requestLine.split(separator: " ")
    let method = parts.first.map(String.init) ?? ""
    let path = parts.count > 1 ? String(parts[1]) : ""
    switch (method, path) {
    case ("GET", "/todos"):
      return json(
        200,
        #"[{"id":1,"userId":1,"title":"Buy milk","completed":false},"#
          + #"{"id":2,"userId":1,"title":"Write docs","completed":true}]"#)
    case ("POST", "/todos"):
      return json(201, withID(201, body: request.body))
    case ("GET", "/todos/404"):
      return json(404, #"{"error":"no todo 404"}"#)
    case ("GET", _) where path.hasPrefix("/todos/"):
      let id = path.dropFirst("/todos/".count)
      return json(200, #"{"id":\#(id),"userId":1,"title":"Todo \#(id)","completed":false}"#)
    case ("PUT", _) where path.hasPrefix("/todos/"):
      return json(200, String(decoding: request.body, as: UTF8.self))
    default:
      return json(404, #"{"error":"no route"}"#)
    }
  }

  private static func withID(_ id: Int, body: [UInt8]) -> String {
    let text = String(decoding: body, as: UTF8.self)
    guard text.hasPrefix("{") else { return text }
    return #"{"id":\#(id),"# + text.dropFirst()
  }

  private static func json(_ status: Int, _ body: String) -> CaptureServer.Answer {
    CaptureServer.Answer(
      "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(for: status))\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
  }
}
