// Sign an imgproxy URL for `webimage serve` with the server's own signer.
import Foundation
import WebImageServer

// snippet.hide
// The values the example leaves to the reader, from the command line: KEY SALT SOURCE (hexadecimal key and salt).
let (key, salt, source) = (CommandLine.arguments[1], CommandLine.arguments[2], CommandLine.arguments[3])
// snippet.show

let signer = URLSigner(hexKey: key, hexSalt: salt)!
let path = "/rs:fill:300:200/g:sm/plain/" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
let url = URL(string: "https://images.example.com/" + signer.signature(for: path) + path)!
// snippet.hide
print(url.absoluteString)
