# Shared by the aarch64 scripts: where the Debian 13 roots are cached, how they are built and
# checked, and how a command runs inside one. Sourced, not run.
#
# Three roots live in the cache (outside the clone, so every clone and every run reuses them):
#   build/    arm64: debootstrap minbase + Debian's swiftlang and the -dev packages PlantLeaf builds
#             with; the sysroot of the cross build, and where the tests run under qemu-user
#   cross/    amd64: debootstrap minbase + Debian's swiftlang, the same Swift 6.0.3 run natively,
#             which compiles for aarch64 against build/
#   minimal/  arm64: debootstrap minbase + only the runtime libraries a release archive says it needs
# Each carries a stamp naming the recipe it was built from; a root without a matching stamp, or one
# whose tools no longer run, is deleted and rebuilt rather than trusted.

aarch64_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$aarch64_dir/../.." && pwd)
cache=${PLANTLEAF_AARCH64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/plantleaf/aarch64}
mirror=${PLANTLEAF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=trixie

# swiftlang does not pull in libstdc++-dev, which linking with --static-swift-stdlib needs.
# mosquitto and its clients are the broker and reader the MQTT tests start; libmosquitto1 is what
# plantleaf opens for --mqtt, libmicrohttpd12t64 what it opens for serve.
build_packages=(swiftlang libstdc++-14-dev libpng-dev libjpeg62-turbo-dev pkg-config make python3 ca-certificates
                mosquitto mosquitto-clients libmosquitto1 libmicrohttpd12t64)
# What a release archive needs from the OS: glibc (in minbase), libpng and libjpeg-turbo.
minimal_packages=(libpng16-16t64 libjpeg62-turbo)
# The cross compiler: Debian's amd64 swiftlang is the same 6.0.3 as the arm64 one and carries
# LLVM's AArch64 back end, clang and lld. Every aarch64 header, library and Swift module comes
# from the build root; libc6-dev is for Package.swift, which is compiled and linked for x86_64 (gcc,
# which swiftlang pulls in, only recommends it).
cross_packages=(swiftlang libc6-dev)

# qemu 7.2's default CPU advertises SME, which makes LiteRT's int8 kernels give wrong results;
# a Raspberry Pi 5's core does not.
export QEMU_CPU=cortex-a76

say() { printf 'aarch64: %s\n' "$*" >&2; }
die() { printf 'aarch64: error: %s\n' "$*" >&2; exit 1; }

host_tools() {
    local missing=()
    for package in qemu-user-static debootstrap binfmt-support; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]} on the host"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
        || die "qemu-aarch64 is not registered with binfmt_misc (flag F): reinstall qemu-user-static"
}

# The recipe a root is built from; changing a package list changes the stamp and forces a rebuild.
recipe() {  # recipe NAME PACKAGE...
    printf '%s %s %s\n' "$suite" "$mirror" "$*" | sha256sum | cut -c1-16
}

# Runs a command in a root with the kernel file systems and the Pi 5 cpuinfo in place, and each
# --bind SRC DST (DST a path inside the root). The mounts are made inside a private mount
# namespace, so they vanish with it on every exit path, a kill included: nothing is ever left
# mounted on the host, and no trap has to get it right.
in_root() {  # in_root ROOT [--bind SRC DST]... -- COMMAND...
    local root=$1; shift
    local binds=()
    while [ "$1" = "--bind" ]; do binds+=("$2" "$3"); shift 3; done
    [ "$1" = "--" ] || die "in_root: expected -- before the command"
    shift
    unshare --mount --propagation private -- bash -c '
        set -e
        root=$1 cpuinfo=$2 nbinds=$3; shift 3
        mount -t proc proc "$root/proc"
        mount -t sysfs sys "$root/sys"
        mount --rbind /dev "$root/dev"
        # libLiteRt.so reads /proc/cpuinfo and crashes on an x86 one.
        mount --bind "$cpuinfo" "$root/proc/cpuinfo"
        for ((i = 0; i < nbinds; i++)); do
            mkdir -p "$root$2"
            mount --bind "$1" "$root$2"
            shift 2
        done
        exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
            LANG=C.UTF-8 TERM=dumb QEMU_CPU="$QEMU_CPU" "$@"
    ' in_root "$root" "$aarch64_dir/pi5-cpuinfo" $((${#binds[@]} / 2)) "${binds[@]}" "$@"
}

root_is_sound() {  # root_is_sound ROOT STAMP CHECK_COMMAND...
    local root=$1 stamp=$2; shift 2
    [ -f "$root/.plantleaf-root" ] && [ "$(cat "$root/.plantleaf-root")" = "$stamp" ] || return 1
    in_root "$root" -- "$@" >/dev/null 2>&1
}

# Builds ROOT from scratch in ROOT.partial and moves it into place only when complete, so an
# interrupted build never leaves a root that looks finished.
make_root() {  # make_root ROOT STAMP ARCH PACKAGE...
    local root=$1 stamp=$2 arch=$3; shift 3
    local partial=$root.partial
    rm -rf "$partial"
    mkdir -p "$(dirname "$root")"
    say "debootstrap $suite $arch into $partial"
    debootstrap --arch="$arch" --variant=minbase "$suite" "$partial" "$mirror" >"$partial.log" 2>&1 \
        || die "debootstrap failed; see $partial.log"
    say "installing $* in the root"
    in_root "$partial" -- sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null' \
        apt "$@" >>"$partial.log" 2>&1 || die "apt-get install in the root failed; see $partial.log"
    in_root "$partial" -- apt-get clean
    echo "$stamp" >"$partial/.plantleaf-root"
    rm -rf "$root"
    mv "$partial" "$root"
    rm -f "$partial.log"
}

ensure_root() {  # ensure_root NAME ARCH CHECK_COMMAND -- PACKAGE...
    local name=$1 arch=$2; shift 2
    local check=()
    while [ "$1" != "--" ]; do check+=("$1"); shift; done
    shift
    local root=$cache/$name stamp
    # The arm64 roots' stamps predate other architectures and name none, so that the roots already
    # cached stay valid; any other architecture is part of its recipe.
    if [ "$arch" = arm64 ]; then stamp=$(recipe "$name" "$@"); else stamp=$(recipe "$name" "arch=$arch" "$@"); fi
    if root_is_sound "$root" "$stamp" "${check[@]}"; then
        say "reusing the $name root in $root"
    else
        [ -e "$root" ] && say "the $name root in $root is missing pieces or out of date: rebuilding it"
        make_root "$root" "$stamp" "$arch" "$@"
        root_is_sound "$root" "$stamp" "${check[@]}" || die "the freshly built $name root fails its check (${check[*]})"
    fi
}

build_root=$cache/build
minimal_root=$cache/minimal
cross_root=$cache/cross

ensure_build_root() {
    ensure_root build arm64 sh -c 'swift --version && dpkg-query -W "$@"' check "${build_packages[@]}" -- "${build_packages[@]}"
}

ensure_minimal_root() {
    ensure_root minimal arm64 sh -c 'dpkg-query -W "$@" && ! command -v swift' check "${minimal_packages[@]}" -- "${minimal_packages[@]}"
}

# The check asks the compiler for the aarch64 target, so a swiftlang built without that LLVM back
# end fails here, before any build.
ensure_cross_root() {
    ensure_root cross amd64 sh -c 'swiftc -print-target-info -target aarch64-unknown-linux-gnu && dpkg-query -W "$@"' \
        check "${cross_packages[@]}" -- "${cross_packages[@]}"
}

# Where the aarch64 builds keep their objects and results: in the clone, beside .build, so the
# x86_64 build is untouched and a second run in the same clone builds only what changed. The
# tested build and the release build have flags of their own, so each has its own folder.
scratch=.build-aarch64
release_scratch=.build-aarch64-release
# make test-aarch64's build: a debug build, as make test's, so the tests check the same
# assertions on both architectures (make release builds and checks the optimised binary).
test_build_flags="-c debug"
test_bin=$scratch/debug/plantleaf
runtime_cache=$cache/runtime

# The aarch64 libLiteRt.so is fetched and verified on the host (pip and curl inside the root fail
# certificate checks under emulation) and bound over the clone's .runtime/ inside the root only.
ensure_runtime() {
    "$project/scripts/fetch-litert.sh" "$runtime_cache/lib/libLiteRt.so" aarch64
}

# The folder the setup linked Models/ and samples/ from; bound at the same path in the root so
# the clone's symlinks resolve there too.
shared_folder() {
    local model
    model=$(readlink -f "$project/Models/plantvillage_int8.tflite") || die "no Models/: run 'make setup' first"
    dirname "$(dirname "$model")"
}

in_build_root() {  # in_build_root SHELL_COMMAND: run in the clone, inside the build root
    local shared
    shared=$(shared_folder)
    in_root "$build_root" --bind "$project" "$project" --bind "$shared" "$shared" \
        --bind "$runtime_cache" "$project/.runtime" -- bash -c "cd '$project' && $1"
}

# make test-aarch64's build runs natively in the cross root, with the build root bound at
# cross_sysroot: the compiler there is the same Swift 6.0.3 as in the build root, about eight times
# faster than under qemu-user. The clone is bound at its own path, as in_build_root binds it, so the
# paths compiled into the tests (#filePath) resolve when they run in the build root.
cross_sysroot=/sysroot
# --triple and --sdk give clang the target and sysroot, but swiftc needs -sdk as well: without it
# Swift's glibc module map is not laid over the sysroot's headers ("missing required module
# SwiftGlibc"). -resource-dir takes the aarch64 Swift modules, runtime and swiftrt.o from the build
# root rather than the cross root's x86_64 ones. lld (in swiftlang) links for any target, where the
# cross root's binutils link x86_64 only. The Swift runtime's rpath is where it is in the build root
# and on a Pi, not where the sysroot is bound here.
cross_build_flags="--triple aarch64-unknown-linux-gnu --sdk $cross_sysroot \
    -Xswiftc -sdk -Xswiftc $cross_sysroot -Xswiftc -resource-dir -Xswiftc $cross_sysroot/usr/libexec/swift/lib/swift \
    -Xswiftc -use-ld=lld -Xswiftc -no-toolchain-stdlib-rpath -Xlinker -rpath -Xlinker /usr/libexec/swift/lib/swift/linux"

in_cross_root() {  # in_cross_root SHELL_COMMAND: run in the clone, inside the cross root
    in_root "$cross_root" --bind "$build_root" "$cross_sysroot" --bind "$project" "$project" \
        -- bash -c "cd '$project' && $1"
}

# Swift modules can be read only by the compiler that wrote them, so the cross compiler must be the
# very swiftlang build whose aarch64 modules it reads; a Debian update to one root and not the
# other would otherwise fail later with an obscure module error.
same_swift_in_both_roots() {
    local native cross
    native=$(in_root "$build_root" -- dpkg-query -W -f='${Version}' swiftlang)
    cross=$(in_root "$cross_root" -- dpkg-query -W -f='${Version}' swiftlang)
    [ "$native" = "$cross" ] || die "swiftlang $cross in the cross root, $native in the build root: delete the older of $cross_root and $build_root to rebuild it"
}

# The release build, with the flags the Makefile's RELEASE_FLAGS gives the x86_64 one (static
# Swift standard library, stripped by the linker: the host's strip cannot read an aarch64 binary).
release_build_flags=${RELEASE_FLAGS:-}

aarch64_release_build() {
    [ -n "$release_build_flags" ] || die "RELEASE_FLAGS is not set: run this through make (make release)"
    in_build_root "swift build --scratch-path $release_scratch $release_build_flags"
}
