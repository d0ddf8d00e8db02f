import PlantLeafCore
import PlantLeafCamera

extension InputQuantizer {
    /// The values `write` puts into a tensor of `elementType` (the one the quantizer was made
    /// for) for `pixels`, as Doubles in tensor order.
    public func values(for pixels: [UInt8], as elementType: ElementType) -> [Double] {
        func written<Element>(_ zero: Element, _ convert: (Element) -> Double) -> [Double] {
            var output = [Element](repeating: zero, count: pixels.count)
            output.withUnsafeMutableBytes { tensor in pixels.withUnsafeBufferPointer { write($0, into: tensor) } }
            return output.map(convert)
        }
        switch elementType {
        case .int8: return written(Int8(0)) { Double($0) }
        case .uint8: return written(UInt8(0)) { Double($0) }
        case .float32: return written(Float(0)) { Double($0) }
        default: preconditionFailure("InputQuantizer writes int8, uint8 or float32, not \(elementType)")
        }
    }
}
