// The names the README's tour assumes.
import Foundation

let api = URL(string: "https://api.example.com/v1")!
