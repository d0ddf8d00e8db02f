import Foundation
import Glibc
@testable import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// XNNPACK's weight cache: written once, read by later interpreters, and rebuilt rather than
/// trusted whenever the file under its name is not the one written (truncated, rewritten,
/// another model's, a planted link), with the same scores every time.
@Suite struct WeightCacheTests {
    /// The int8 model's output for a fixed input pattern, and how the cache was used.
    func run(cache folder: String?, model: String = TestPaths.defaultModel) throws -> (output: [UInt8], cache: WeightCacheState) {
        var options = TestPaths.runtime
        options.weightCacheFolder = folder
        let interpreter = try Interpreter(modelPath: model, options: options)
        try interpreter.writeInput { memory in
            for index in memory.indices { memory[index] = UInt8(truncatingIfNeeded: index * 7 + index / 224) }
        }
        try interpreter.invoke()
        return (try interpreter.readOutput { Array($0) }, interpreter.weightCache)
    }

    func cacheFile(in folder: String) -> String? {
        let xnnpack = folder + "/xnnpack"
        guard let directory = opendir(xnnpack) else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".cache") { return xnnpack + "/" + name }
        }
        return nil
    }

    func size(_ path: String) -> Int {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    @Test func builtOnceThenReadWithTheSameScores() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let uncached = try run(cache: nil)
        #expect(uncached.cache == .off)
        let first = try run(cache: folder + "/plantleaf")
        #expect(first.cache == .built)
        let second = try run(cache: folder + "/plantleaf")
        #expect(second.cache == .loaded)
        #expect(first.output == uncached.output)
        #expect(second.output == uncached.output)
        let path = try #require(cacheFile(in: folder + "/plantleaf"))
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_size > 1_000_000)
    }

    /// Each way the file under the cache's name can differ from the one written.
    enum Damage: String, CaseIterable { case truncated, rewrittenInPlace, otherModelsCache, plantedLink, removedStamp }

    @Test(arguments: Damage.allCases)
    func damagedCacheIsRebuiltNotTrusted(damage: Damage) throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let cache = folder + "/plantleaf"
        let expected = try run(cache: nil).output
        let built = try run(cache: cache)
        #expect(built.cache == .built)
        let path = try #require(cacheFile(in: cache))
        let fullSize = size(path)
        switch damage {
        case .truncated:
            #expect(truncate(path, off_t(fullSize / 2)) == 0)
        case .rewrittenInPlace:
            // Same size, bytes of the packed weights overwritten.
            let descriptor = open(path, O_WRONLY)
            #expect(descriptor >= 0)
            let garbage = [UInt8](repeating: 0x5A, count: 65_536)
            #expect(pwrite(descriptor, garbage, garbage.count, off_t(fullSize / 2)) == garbage.count)
            close(descriptor)
        case .otherModelsCache:
            let other = folder + "/other"
            let otherBuilt = try run(cache: other, model: TestPaths.floatModel)
            #expect(otherBuilt.cache == .built)
            let otherPath = try #require(cacheFile(in: other))
            #expect(rename(otherPath, path) == 0)
        case .plantedLink:
            let target = folder + "/target"
            TestImages.write([1, 2, 3], to: target)
            #expect(unlink(path) == 0)
            #expect(symlink(target, path) == 0)
        case .removedStamp:
            #expect(unlink(path + ".stamp") == 0)
        }
        let rebuilt = try run(cache: cache)
        #expect(rebuilt.cache == .built, "\(damage)")
        #expect(rebuilt.output == expected)
        #expect(size(path) == fullSize)
        let again = try run(cache: cache)
        #expect(again.cache == .loaded)
        #expect(again.output == expected)
    }

    @Test func unusableFolderCompilesWithoutTheCache() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        TestImages.write([0], to: folder + "/file")
        let result = try run(cache: folder + "/file/plantleaf")
        guard case .unavailable = result.cache else {
            Issue.record("cache state \(result.cache)")
            return
        }
        let uncached = try run(cache: nil)
        #expect(result.output == uncached.output)
    }

    /// Each model or runtime change leaves a cache of megabytes behind. Writing a cache prunes
    /// the others that are stale (another runtime's, unused for 30 days), the least recently used
    /// beyond 8, files of writers that died, and digests no cache is named by.
    @Test func writingACachePrunesStaleCachesAndBoundsTheFolder() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let cache = folder + "/plantleaf", xnnpack = folder + "/plantleaf/xnnpack"
        #expect(try run(cache: cache).cache == .built)
        let leafCache = try #require(cacheFile(in: cache))
        let digestsInName = leafCache.split(separator: "/").last!.dropLast(6).split(separator: "-").map(String.init)
        let runtime = digestsInName[1]
        func age(_ path: String, seconds: Int) {
            var times = [timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        }
        func plant(_ name: String, unusedFor days: Int) -> String {
            let path = xnnpack + "/" + name
            TestImages.write(Array("not packed weights".utf8), to: path)
            TestImages.write(Array("stamp".utf8), to: path + ".stamp")
            age(path + ".stamp", seconds: days * 86_400)
            return path
        }
        func digest(_ digit: Int) -> String { String(repeating: String(digit), count: 64) }
        let otherRuntime = plant("\(digest(1))-\(digest(2)).cache", unusedFor: 0)
        let monthOld = plant("\(digest(3))-\(runtime).cache", unusedFor: 31)
        // Nine recent caches of this runtime, used 1 to 9 days ago.
        let recent = (1...9).map { plant(String(repeating: "a", count: 63) + "\($0)-\(runtime).cache", unusedFor: $0) }
        let abandoned = xnnpack + "/\(digest(4))-\(runtime).cache.999999.tmp"
        TestImages.write(Array("half written".utf8), to: abandoned)
        age(abandoned, seconds: 7200)
        let orphanDigest = cache + "/digests/1-2-3-4.5-6.7.sha256"
        TestImages.write(Array(digest(5).utf8), to: orphanDigest)

        // Another model: a cache is written, and the folder pruned.
        #expect(try run(cache: cache, model: TestPaths.floatModel).cache == .built)
        func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
        #expect(!exists(otherRuntime) && !exists(otherRuntime + ".stamp"))
        #expect(!exists(monthOld) && !exists(abandoned) && !exists(orphanDigest))
        // Eight kept: the new cache, the int8 model's (written a moment ago) and the six most recent.
        #expect(exists(leafCache) && recent.prefix(6).allSatisfy(exists) && !recent.dropFirst(6).contains(where: exists))
        // The digests of the caches kept stay, so their next start does not hash the files again.
        let digests = try FileManager.default.contentsOfDirectory(atPath: cache + "/digests")
            .map { try String(contentsOfFile: cache + "/digests/" + $0, encoding: .utf8) }
        #expect(digests.contains(runtime) && digests.contains(digestsInName[0]))
        #expect(try run(cache: cache).cache == .loaded)
    }
}

