import CJPEG
import Glibc
import PlantLeafSupport

/// Encodes RGB images as baseline JPEG with the project's libjpeg-turbo shim.
public enum JPEGEncoder {
    /// The image as a baseline JPEG at `quality` (1 to 100).
    /// - Throws: `ImageError.corrupt` with libjpeg's message when encoding fails (out of memory).
    public static func encode(_ image: RGBImage, quality: Int = 90) throws(ImageError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pl_jpeg_encode(image.pixels, UInt32(image.width), UInt32(image.height), 3, Int32(quality), 0, nil, 0,
                                    &output, &size, &message, message.count)
        defer { free(output) }
        guard status == Int32(PL_JPEG_OK), let output else { throw .corrupt(format: .jpeg, detail: stringFromCBuffer(message)) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
