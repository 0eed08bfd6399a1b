/// Ready-made accounts, a few per provider, with fixed ids so tests can name them; each provider's folder
/// declares its own (`SandboxIdentity.yahooUser`) and lists them in its definition.
extension SandboxIdentity {
    /// Every ready-made identity, in ``SandboxRegistry`` order.
    public static var presets: [SandboxIdentity] { SandboxRegistry.all.flatMap(\.presets) }
}
