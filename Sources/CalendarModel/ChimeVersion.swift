/// The version `chime --version` and `chimed --version` print: defined
/// once, so that the two executables of one build always agree.
public enum ChimeVersion {
    public static let current = "0.1.0"
}
