import EndpointJSON
import EndpointOpenAPI
import EndpointTesting
import Foundation
import Testing

/// `GeneratedShop/` holds what the generator writes for `Documents/shop.json` with
/// `Documents/shop-config.json` (its stubs in `GeneratedShop/Stubs/`); the test target
/// compiles it. Generate it again with `swift run endpoint-openapi generate
/// Tests/EndpointOpenAPITests/Documents/shop.json --config
/// Tests/EndpointOpenAPITests/Documents/shop-config.json --output
/// Tests/EndpointOpenAPITests/GeneratedShop`.
@Suite struct ShopSourceTests {
  let api = URL(string: "https://shop.example/v2")!

  @Test func shopDocumentGeneratesTheCheckedInSourceAndStubs() throws {
    let documents = testDirectory.appending(path: "Documents")
    let options = try OpenAPIGenerator.Options(
      configuration: Data(contentsOf: documents.appending(path: "shop-config.json")))
    #expect(options.stubs == "../GeneratedShop/Stubs")
    let output = try OpenAPIGenerator(options: options).generate(
      document: Data(contentsOf: documents.appending(path: "shop.json")), named: "shop.json")
    #expect(output.warnings.isEmpty)
    #expect(
      output.stubs.map(\.path) == [
        "ShopStyles+Stubs.swift", "ShopOrders+Stubs.swift", "ShopProducts+Stubs.swift",
      ])
    let files =
      output.files.map { ($0, "GeneratedShop/" + $0.path) }
      + output.stubs.map { ($0, "GeneratedShop/Stubs/" + $0.path) }
    for (file, path) in files {
      let expected = try String(contentsOf: testDirectory.appending(path: path), encoding: .utf8)
      #expect(file.contents == expected, "\(file.path) differs from \(path)")
    }
  }

  @Test func theStubsAnswerWithTheDocumentsExamples() async throws {
    let stub = ShopProducts.stubClient(baseURL: api)
    let client = stub.with(BaseURLMiddleware(api))
    // The response's own example, then one made from the schema's properties' examples.
    let products = try await client.call(ShopProducts.listProducts(limit: 2))
    #expect(
      products == [
        Product(id: 1, name: #"Lamp "Nova""#, price: 19.5),
        Product(id: 2, name: "Chair", price: 45, tags: ["oak", "#1"]),
      ])
    #expect(
      try await client.call(ShopProducts.getProduct(productId: 41))
        == Product(id: 7, name: "Lamp", price: 19.5))
    #expect(try await client.call(ShopProducts.getProduct(productId: 42)).id == 7)
    // The literal path is not taken by the template beside it.
    #expect(try await client.call(ShopProducts.featuredProduct()).name == "Desk")
    #expect(
      stub.requests.map(\.url.path) == [
        "/v2/products", "/v2/products/41", "/v2/products/42", "/v2/products/featured",
      ])
    try stub.verify()
  }

  @Test func anOperationWithoutAnExampleIsNotAnswered() async throws {
    let stub = ShopOrders.stubClient(baseURL: api)
    let client = stub.with(BaseURLMiddleware(api))
    try await client.call(ShopOrders.cancelOrder(orderId: "o-1"))
    await #expect(throws: TestDoubleFailure.self) {
      try await client.call(ShopOrders.listOrders())
    }
    // A rule added to the preset's stub answers too.
    stub.on(.get, "/orders").reply(json: #"{"items": [{"id": "o-2"}], "has_more": false}"#)
    #expect(try await client.call(ShopOrders.listOrders()).items.map(\.id) == ["o-2"])
  }

  @Test func aDocumentedLinkHeaderPagesTheList() async throws {
    let stub = StubClient(baseURL: api)
    let link = #"<https://shop.example/v2/products?page=2>; rel="next""#
    stub.on(.get, "/products?page=2").reply(
      headers: ["Link": #"</v2/products?page=3>; rel="next", </v2/products>; rel="first""#],
      json: #"[{"id": 2, "name": "B", "price": 2}]"#)
    stub.on(.get, "/products?page=3").reply(json: #"[{"id": 3, "name": "C", "price": 3}]"#)
    stub.on(.get, "/products").reply(
      headers: ["Link": link], json: #"[{"id": 1, "name": "A", "price": 1}]"#)
    let client = stub.with(BaseURLMiddleware(api))
    var names: [String] = []
    let items = client.items(
      of: ShopProducts.listProducts(limit: 1), paginator: ShopProducts.listProductsPaginator())
    for try await product in items { names.append(product.name) }
    #expect(names == ["A", "B", "C"])
    #expect(
      stub.requests.map(\.url.absoluteString) == [
        "https://shop.example/v2/products?limit=1", "https://shop.example/v2/products?page=2",
        "https://shop.example/v2/products?page=3",
      ])
  }

  @Test func aConfiguredCursorPagesWhileThePageSaysMoreFollow() async throws {
    let stub = StubClient(baseURL: api)
    stub.on(.get, "/orders?after=c2").reply(
      json: #"{"items": [{"id": "o-2"}], "next_cursor": "c3", "has_more": true}"#)
    // The last page still names a cursor; has_more ends the walk.
    stub.on(.get, "/orders?after=c3").reply(
      json: #"{"items": [{"id": "o-3"}], "next_cursor": "c4", "has_more": false}"#)
    stub.on(.get, "/orders").reply(
      json: #"{"items": [{"id": "o-1"}], "next_cursor": "c2", "has_more": true}"#)
    let client = stub.with(BaseURLMiddleware(api))
    var ids: [String] = []
    let pages = client.pages(
      of: ShopOrders.listOrders(), paginator: ShopOrders.listOrdersPaginator())
    for try await page in pages { ids += page.resource.items.map(\.id) }
    #expect(ids == ["o-1", "o-2", "o-3"])
    #expect(stub.requests.map { $0.query("after") } == [nil, "c2", "c3"])
  }

  @Test func labelMatrixAndUnexplodedCookieParametersFollowTheirStyle() async throws {
    let stub = ShopStyles.stubClient(baseURL: api)
    let client = stub.with(BaseURLMiddleware(api))
    try await client.call(
      ShopStyles.showColor(
        shade: "a/b c", tones: ["x", "y"], mix: Rgb(g: 200, r: 100), xColor: Rgb(b: 3, g: 2, r: 1))
    )
    try await client.call(
      ShopStyles.showPalette(
        id: 5, ids: [3, 4], rgb: Rgb(b: 150, g: 200, r: 100), hsl: .init(h: 1, s: 2),
        xMix: Rgb(g: 2, r: 1), tones: [1, 2], box: Rgb(g: 2, r: 1)))
    #expect(
      stub.requests.map(\.url.absoluteString) == [
        "https://shop.example/v2/colors/.a%2Fb%20c/.x.y/;mix=G,200,R,100",
        "https://shop.example/v2/palettes/;id=5/;ids=3;ids=4/B=150,G=200,R=100/.h=1.s=2",
      ])
    #expect(stub.requests.map { $0.headerFields["X-Color"] } == ["B,3,G,2,R,1", nil])
    #expect(stub.requests.last?.headerFields["X-Mix"] == "G=2,R=1")
    #expect(stub.requests.last?.headerFields["Cookie"] == "tones=1,2; box=G,2,R,1")
  }
}
