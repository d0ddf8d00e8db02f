import PlantLeafCore
import CJPEG
import Glibc
import PlantLeafSupport

/// A made-up leaf photo, encoded as JPEG in memory, for `plantleaf bench --synthetic`: no sample
/// file is needed, and every board gets the same pixels (the pattern uses only +, -, x, / and
/// remainders, which IEEE 754 rounds the same everywhere; no libm function whose last bit may
/// differ between architectures). Its size, 256 x 256, is the
/// PlantVillage samples' size, and it has a photo's kind of detail (a shaded leaf, veins, spots,
/// fine texture) so the JPEG decoder does representative work.
public enum SyntheticLeaf {
    public static let width = 256
    public static let height = 256

    /// The leaf's RGB bytes, width x height x 3, the same on every machine.
    public static func pixels() -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        var noise: UInt32 = 0x2545F491  // xorshift32: a fixed, portable sequence
        for y in 0..<height {
            for x in 0..<width {
                noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
                let grain = Double(noise & 15) - 7.5
                // An ellipse leaf, tilted, on a pale grey background.
                let u = Double(x - width / 2), v = Double(y - height / 2)
                let along = (u * 0.8 + v * 0.6) / 115, across = (v * 0.8 - u * 0.6) / 70
                let inside = along * along + across * across
                let rgb: (Double, Double, Double)
                if inside > 1 {
                    rgb = (200 + grain, 200 + grain, 196 + grain)
                } else {
                    let shade = 1 - 0.35 * inside
                    // A zig-zag side vein: a triangle wave, from exactly rounded operations only.
                    let zigzag = abs((along * 3 + 8).truncatingRemainder(dividingBy: 2) - 1) - 0.5
                    let vein = abs(across) < 0.04 || abs(zigzag * 0.7 - across) < 0.025 ? 40.0 : 0
                    let spot = (u - 30) * (u - 30) + (v + 20) * (v + 20) < 196 || (u + 40) * (u + 40) + (v - 10) * (v - 10) < 81 ? 1.0 : 0
                    rgb = (60 * shade + vein + 90 * spot + grain,
                           140 * shade + vein - 40 * spot + grain,
                           50 * shade + vein * 0.5 - 20 * spot + grain)
                }
                for channel in [rgb.0, rgb.1, rgb.2] { pixels.append(UInt8(min(max(channel.rounded(), 0), 255))) }
            }
        }
        return pixels
    }

    /// The image as a baseline JPEG at quality 90.
    ///
    /// - Throws: `BenchError.syntheticImage` when libjpeg cannot encode it (out of memory).
    public static func jpeg() throws(BenchError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pl_jpeg_encode(pixels(), UInt32(width), UInt32(height), 3, 90, 0, nil, 0,
                                    &output, &size, &message, message.count)
        defer { free(output) }
        guard status == Int32(PL_JPEG_OK), let output else { throw .syntheticImage(reason: stringFromCBuffer(message)) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
