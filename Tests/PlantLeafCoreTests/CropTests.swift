import PlantLeafCore
import Testing

@Suite struct CropTests {
    @Test func centerCropIsTheLargestCentredSquareOnChromaPairs() {
        #expect(CropMode.center.region(width: 640, height: 480, alignment: 2) == CropRegion(x: 80, y: 0, width: 480, height: 480))
        #expect(CropMode.center.region(width: 480, height: 640, alignment: 2) == CropRegion(x: 0, y: 80, width: 480, height: 480))
        #expect(CropMode.center.region(width: 643, height: 481, alignment: 2) == CropRegion(x: 80, y: 0, width: 480, height: 480))
        #expect(CropMode.center.region(width: 643, height: 481) == CropRegion(x: 81, y: 0, width: 481, height: 481))
        #expect(CropMode.none.region(width: 643, height: 481, alignment: 2) == CropRegion(x: 0, y: 0, width: 642, height: 480))
    }
}
