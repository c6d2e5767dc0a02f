import EndpointCore
import EndpointTesting
import Foundation
import PetsAPI
import PetsChecked

// The endpoints the build-tool plugin generated and those the command wrote, called alike.
let api = URL(string: "https://pets.example/v1")!
let stub = StubClient(baseURL: api)
stub.on(.get, "/pets/{petId}").reply(json: #"{"id": 7, "name": "Rex", "status": "available"}"#)
let client = stub.with(BaseURLMiddleware(api))
let built = try await client.call(Pets.showPet(petId: "7"))
let checked = try await client.call(CheckedPets.showPet(petId: "7"))
guard built.name == "Rex", checked.name == "Rex", built.id == 7 else {
  print("plugin fixture: unexpected \(built) \(checked)")
  exit(1)
}
print("plugin fixture: ok, \(built.name) through both plugins")
