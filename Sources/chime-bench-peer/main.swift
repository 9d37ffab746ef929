import Foundation

// The peer of `chime-bench cli`: Foundation's hello world, built in release
// mode like chime, which every chime command's start-up is measured against.
print(Date())
