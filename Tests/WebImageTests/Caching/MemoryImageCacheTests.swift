import Foundation
import Testing

@testable import WebImage

extension CachingTests {
    @Suite("Caching: MemoryImageCache")
    struct MemoryImageCacheTests {
        /// 4×4 images cost 64 bytes each.
        let image = CacheFixtures.image

        @Test func getMarksMostRecentlyUsedAndEvictsLeastRecentlyUsed() {
            let cache = MemoryImageCache(configuration: .init(costLimit: .max, countLimit: 3, usesWeakTier: false))
            for key in ["a", "b", "c"] { cache.setImage(image(4, 4, .white), forKey: key) }
            #expect(cache.keysByRecency == ["c", "b", "a"])
            #expect(cache.image(forKey: "a") != nil)
            #expect(cache.keysByRecency == ["a", "c", "b"])
            cache.setImage(image(4, 4, .white), forKey: "d")
            #expect(cache.keysByRecency == ["d", "a", "c"])
            #expect(cache.image(forKey: "b") == nil)
            #expect(cache.count == 3)
        }

        @Test func costLimitEvictsUntilUnderTheLimit() {
            let cache = MemoryImageCache(configuration: .init(costLimit: 200, usesWeakTier: false))
            cache.setImage(image(4, 4, .white), forKey: "a")  // 64
            cache.setImage(image(4, 4, .white), forKey: "b")  // 128
            cache.setImage(image(4, 4, .white), forKey: "c")  // 192
            #expect(cache.totalCost == 192)
            cache.setImage(image(4, 4, .white), forKey: "d")  // 256 > 200: "a" goes
            #expect(cache.keysByRecency == ["d", "c", "b"])
            #expect(cache.totalCost == 192)
            cache.setImage(image(8, 4, .white), forKey: "c")  // replace: 64 + 64 + 128 = 256 > 200: "b" goes
            #expect(cache.keysByRecency == ["c", "d"])
            #expect(cache.totalCost == 192)
        }

        @Test func imageLargerThanTheLimitIsNotHeldStrongly() {
            let cache = MemoryImageCache(configuration: .init(costLimit: 100))
            cache.setImage(image(4, 4, .white), forKey: "small")
            let big = image(8, 8, .white)  // 256
            cache.setImage(big, forKey: "big")
            #expect(cache.keysByRecency == ["small"], "the big image must not evict the others")
            #expect(cache.totalCost == 64)
            #expect(cache.image(forKey: "big") === big, "but stays findable while held")
            #expect(cache.keysByRecency == ["small"])
        }

        @Test func explicitCostOverridesImageCost() {
            let cache = MemoryImageCache(configuration: .init(costLimit: 10, usesWeakTier: false))
            cache.setImage(image(4, 4, .white), forKey: "a", cost: 5)
            cache.setImage(image(4, 4, .white), forKey: "b", cost: 5)
            #expect(cache.count == 2)
            cache.setImage(image(4, 4, .white), forKey: "c", cost: 1)
            #expect(cache.keysByRecency == ["c", "b"])
        }

        @Test func weakTierFindsAnEvictedImageStillHeldElsewhere() {
            let cache = MemoryImageCache(configuration: .init(costLimit: .max, countLimit: 1))
            var held: Image? = image(4, 4, .white)
            cache.setImage(held!, forKey: "held")
            cache.setImage(image(4, 4, .white), forKey: "dropped")
            cache.setImage(image(4, 4, .white), forKey: "other")  // evicts "dropped", nobody holds it
            #expect(cache.keysByRecency == ["other"])
            #expect(cache.containsImage(forKey: "held"))
            #expect(cache.image(forKey: "held") === held)
            #expect(cache.keysByRecency == ["held"], "a weak hit moves back into the LRU")
            #expect(cache.image(forKey: "dropped") == nil)
            cache.setImage(image(4, 4, .white), forKey: "other")
            held = nil
            #expect(cache.image(forKey: "held") == nil, "released elsewhere: gone")
        }

        @Test func weakTierIsOffWhenDisabledAndPrunesDeadReferences() {
            let off = MemoryImageCache(configuration: .init(costLimit: .max, countLimit: 1, usesWeakTier: false))
            let held = image(4, 4, .white)
            off.setImage(held, forKey: "held")
            off.setImage(image(4, 4, .white), forKey: "other")
            #expect(off.image(forKey: "held") == nil)

            let on = MemoryImageCache(configuration: .init(costLimit: .max, countLimit: 1))
            for index in 0..<1000 { on.setImage(image(1, 1, .white), forKey: "k\(index)") }
            #expect(on.weakReferenceCount < 200, "dead weak references are pruned as the table grows")
        }

        @Test func trimToCostKeepsWeakTierButRemoveAllClearsIt() {
            let cache = MemoryImageCache(configuration: .init(costLimit: .max))
            let held = image(4, 4, .white)
            cache.setImage(held, forKey: "held")
            cache.setImage(image(4, 4, .white), forKey: "b")
            cache.trim(toCost: 64)
            #expect(cache.keysByRecency == ["b"])
            cache.trim(toCost: 0)
            #expect(cache.count == 0 && cache.totalCost == 0)
            #expect(cache.image(forKey: "held") === held)
            cache.removeAll()
            #expect(cache.image(forKey: "held") == nil)
            #expect(cache.count == 0)
        }

        @Test func removeDropsBothTiers() {
            let cache = MemoryImageCache(configuration: .init(costLimit: .max, countLimit: 1))
            let held = image(4, 4, .white)
            cache.setImage(held, forKey: "a")
            #expect(cache.removeImage(forKey: "a") === held)
            #expect(cache.image(forKey: "a") == nil)
            cache.setImage(held, forKey: "a")
            cache.setImage(image(4, 4, .white), forKey: "b")
            #expect(cache.removeImage(forKey: "a") == nil, "was only weakly held")
            #expect(cache.image(forKey: "a") == nil)
        }

        @Test func defaultCostLimitIsAnEighthOfMemoryCappedAt512MiB() {
            let expected = min(ProcessInfo.processInfo.physicalMemory / 8, 512 << 20)
            #expect(MemoryImageCache.defaultCostLimit == Int(expected))
            #expect(MemoryImageCache().configuration.costLimit == Int(expected))
        }

        @Test func concurrentHammerKeepsTheInvariants() async {
            let cache = MemoryImageCache(configuration: .init(costLimit: 64 * 40, countLimit: 50))
            let images = (0..<8).map { _ in image(4, 4, .white) }
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var generator = SystemRandomNumberGenerator()
                        for step in 0..<5_000 {
                            let key = "k\(Int.random(in: 0..<100, using: &generator))"
                            switch (step + worker) % 5 {
                            case 0, 1: cache.setImage(images[worker], forKey: key)
                            case 2: _ = cache.removeImage(forKey: key)
                            case 3: if step % 500 == 0 { cache.trim(toCost: 64 * 10) }
                            default: _ = cache.image(forKey: key)
                            }
                        }
                    }
                }
            }
            #expect(cache.count <= 40)
            #expect(cache.totalCost == cache.count * 64)
            #expect(cache.keysByRecency.count == cache.count)
            #expect(Set(cache.keysByRecency).count == cache.count)
        }
    }
}
