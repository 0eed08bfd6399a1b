/// The version of this Hearth build: `hearth --version`, the start-up banner and `/healthz` show it.
/// Change it here only.
public enum HearthVersion {
    public static let current = "0.1.0"
}
