import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
let sem = DispatchSemaphore(value: 0)
for s in ["http://[::1]:18099/x", "http://[0:0:0:0:0:0:0:1]:18099/x", "http://localhost6:18099/x"] {
  let u = URL(string: s)!
  print(s, "host:", u.host as Any, u.host(percentEncoded: true) as Any)
  URLSession.shared.dataTask(with: u) { d, r, e in print(" ->", (r as? HTTPURLResponse)?.statusCode as Any, e as Any); sem.signal() }.resume()
  sem.wait()
}
