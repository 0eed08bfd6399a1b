#!/usr/bin/env bash
# What an app that uses only the HearthAuth product resolves. A throwaway app depends on a bare clone of this
# repository by file:// URL (as an app depends on a git URL) at REF, once with the package's default traits and
# once with `traits: []` (the Server trait off), and prints the packages resolved and the size of their
# checkouts. Only committed work is seen. Needs nothing but git and swift; leaves nothing behind.
#   scripts/sdk-resolve.sh [REF]      (default HEAD)
set -euo pipefail
root="$(git rev-parse --show-toplevel)"
commit="$(git -C "$root" rev-parse "${1:-HEAD}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q --bare "$root" "$work/hearth.git"
for traits in default none; do
    app="$work/app-$traits"
    mkdir -p "$app/Sources/App"
    argument=""
    [ "$traits" = none ] && argument=", traits: []"
    cat > "$app/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "app",
    platforms: [.macOS(.v15), .iOS(.v13)],
    dependencies: [.package(url: "file://$work/hearth.git", revision: "$commit"$argument)],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "HearthAuth", package: "hearth")])]
)
EOF
    echo 'import HearthAuth; print(AuthErrorCode.self)' > "$app/Sources/App/main.swift"
    if ! (cd "$app" && swift package resolve > "$work/resolve.log" 2>&1); then
        echo "traits $traits: swift package resolve failed: $(tail -1 "$work/resolve.log")"
        continue
    fi
    packages=$(ls "$app/.build/checkouts")
    echo "traits $traits: $(echo "$packages" | wc -l) packages, checkouts $(du -sh "$app/.build/checkouts" | cut -f1), .build $(du -sh "$app/.build" | cut -f1)"
    echo "  $(echo $packages)"
done
