import Foundation
import Testing
import WebImageTesting

@testable import WebImage

/// `swift test --filter Target` selects these.
@Suite("Targets")
@MainActor
struct ImageTargetTests {
    let placeholder = Image(pixels: PixelBuffer(width: 2, height: 2, filledWith: .white))

    @Test("shows the placeholder at once, then the image; a second target gets it from memory synchronously")
    func placeholderThenImage() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            let url = env.url(ServedImages.alpha)
            target.setImage(with: url, placeholder: placeholder, manager: env.manager, completion: log.handler("a"))
            #expect(target.kinds == ["set", "start"])
            #expect(target.images.first! === placeholder)
            #expect(target.loadingImageURL() == url)

            let result = try await log.result("a").get()
            #expect(result.cacheType == .none)
            #expect(target.kinds.first == "set")
            #expect(target.kinds.suffix(2) == ["set", "finish"])
            #expect(target.images.last! === result.image)
            #expect(target.loadingImageURL() == nil)

            let second = RecordingTarget()
            second.setImage(with: url, placeholder: placeholder, manager: env.manager, completion: log.handler("b"))
            #expect(second.kinds == ["set", "start", "set", "finish"])
            #expect(second.images.last! === result.image)
            #expect(log.count("b") == 1)
            #expect(try log.results["b"]![0].get().cacheType == .memory)
            #expect(log.count("a") == 1)
        }
    }

    @Test("a delayed placeholder is not shown while loading, is shown when the load fails, and never on success")
    func delayedPlaceholder() async throws {
        try await withManager { env in
            let failing = RecordingTarget()
            let log = CompletionLog()
            failing.setImage(
                with: env.url("/status/404"), placeholder: placeholder, options: .delayPlaceholder,
                manager: env.manager,
                completion: log.handler("fail"))
            #expect(failing.kinds == ["start"])
            guard case .failure(let error) = await log.result("fail") else {
                Issue.record("a 404 must fail")
                return
            }
            #expect(error.code == .badStatus)
            // (The loader reports progress for the error page's body too.)
            #expect(failing.kinds.filter { $0 != "progress" } == ["start", "set", "finish"])
            #expect(failing.images.count == 1)
            #expect(failing.images.first! === placeholder)

            let succeeding = RecordingTarget()
            succeeding.setImage(
                with: env.url(ServedImages.small), placeholder: placeholder, options: .delayPlaceholder,
                manager: env.manager, completion: log.handler("ok"))
            let image = try await log.result("ok").get().image
            #expect(succeeding.kinds.first == "start")
            #expect(succeeding.kinds.suffix(2) == ["set", "finish"])
            #expect(succeeding.images.count == 1)
            #expect(succeeding.images[0] === image)
        }
    }

    @Test("a newer source wins: the older, slower load is cancelled, reported as cancelled, and never shown")
    func newerSourceWins() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            let slowURL = env.url("\(ServedImages.alpha)?gate=slow")
            // Another caller keeps the slow download alive, so that it really finishes after the fast one.
            let keeper = env.manager.task(for: ImageRequest(url: slowURL))
            target.setImage(
                with: slowURL, placeholder: placeholder, manager: env.manager, completion: log.handler("slow"))
            await env.server.waitForRequests(ServedImages.alpha)
            target.setImage(
                with: env.url(ServedImages.photo), placeholder: placeholder, manager: env.manager,
                completion: log.handler("fast"))
            #expect(target.loadingImageURL() == env.url(ServedImages.photo))
            let fast = try await log.result("fast").get().image
            guard case .failure(let error) = await log.result("slow") else {
                Issue.record("the replaced load must report cancellation")
                return
            }
            #expect(error.code == .cancelled)

            env.server.openGate("slow")
            let slow = try await keeper.result.image
            #expect(slow != nil)
            #expect(!target.images.contains { $0 != nil && $0 === slow })
            #expect(target.images.last! === fast)
            #expect(
                target.kinds.filter { $0 != "progress" } == ["set", "start", "finish", "set", "start", "set", "finish"])
            #expect(log.count("slow") == 1)
            #expect(log.count("fast") == 1)
        }
    }

    @Test("a result arriving for a replaced load is refused by the registry")
    func registryRefusesStaleGeneration() {
        let registry = ImageTargetRegistry()
        let target = RecordingTarget()
        let key = ImageTargetRegistry.Key(target, operation: nil)
        let first = registry.begin(target, key: key, url: URL(string: "https://a.test/1.png"))
        let second = registry.begin(target, key: key, url: URL(string: "https://a.test/2.png"))
        #expect(!first.replaced)
        #expect(second.replaced)
        #expect(!registry.isCurrent(key, generation: first.generation))
        #expect(!registry.end(key, generation: first.generation))
        #expect(registry.url(for: key) == URL(string: "https://a.test/2.png"))
        #expect(registry.end(key, generation: second.generation))
        #expect(registry.count == 0)
        let other = ImageTargetRegistry.Key(target, operation: "background")
        _ = registry.begin(target, key: other, url: nil)
        #expect(registry.url(for: key) == nil)
        #expect(registry.count == 1)
    }

    @Test("the target is held weakly: released mid-load, nothing keeps it alive and nothing crashes")
    func weakTarget() async throws {
        try await withManager { env in
            let log = CompletionLog()
            var target: RecordingTarget? = RecordingTarget()
            weak let released = target
            let id = ObjectIdentifier(target!)
            target!.setImage(
                with: env.url("\(ServedImages.photo)?gate=held&chunk=4096"), manager: env.manager,
                completion: log.handler("load"))
            await env.server.waitForRequests(ServedImages.photo)
            target = nil
            #expect(released == nil)
            env.server.openGate("held")
            let outcome = await log.result("load")
            if case .failure(let error) = outcome { #expect(error.code == .cancelled) }
            #expect(log.count("load") == 1)
            #expect(!ImageTargetRegistry.shared.hasLoads(for: id))
        }
    }

    @Test("avoidAutoSetImage delivers the image to the completion only")
    func avoidAutoSetImage() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            target.setImage(
                with: env.url(ServedImages.small), options: .avoidAutoSetImage, manager: env.manager,
                completion: log.handler("a"))
            let result = try await log.result("a").get()
            #expect(result.image != nil)
            #expect(target.kinds.first == "set(nil)")
            #expect(target.kinds.filter { $0.hasPrefix("set") } == ["set(nil)"])
            #expect(target.kinds.last == "finish")
        }
    }

    @Test("progress reaches the target hook and the progress closure, between start and finish")
    func progressHook() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            let seen = ProgressBox()
            target.setImage(
                with: env.url("\(ServedImages.photo)?chunk=8192&drip=2"), manager: env.manager,
                progress: { seen.values.append($0) }, completion: log.handler("a"))
            _ = try await log.result("a").get()
            let size = try Fixtures.data("resize/photo.png").count
            #expect(target.progress.count >= 2)
            #expect(target.progress == seen.values)
            #expect(target.progress.map(\.received) == target.progress.map(\.received).sorted())
            #expect(target.progress.last?.received == size)
            #expect(target.kinds == ["set(nil)", "start", "progress", "set", "finish"])
        }
    }

    @Test("cancelImageLoad ends the load at once with a cancellation; a nil URL fails after the placeholder")
    func cancelAndNilURL() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            target.setImage(
                with: env.url("\(ServedImages.alpha)?gate=never"), placeholder: placeholder, manager: env.manager,
                completion: log.handler("a"))
            await env.server.waitForRequests(ServedImages.alpha)
            target.cancelImageLoad()
            #expect(target.kinds == ["set", "start", "finish"])
            #expect(target.loadingImageURL() == nil)
            guard case .failure(let error) = await log.result("a") else {
                Issue.record("a cancelled load must fail")
                return
            }
            #expect(error.code == .cancelled)
            #expect(target.kinds == ["set", "start", "finish"])

            target.forget()
            target.setImage(with: nil, placeholder: placeholder, manager: env.manager, completion: log.handler("nil"))
            #expect(target.kinds == ["set"])
            guard case .failure(let nilError) = log.results["nil"]?.first else {
                Issue.record("a nil URL must fail synchronously")
                return
            }
            #expect(nilError.code == .invalidSource)
        }
    }

    @Test("operation keys are independent slots on one target")
    func operationKeys() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            target.setImage(
                with: env.url("\(ServedImages.alpha)?gate=g"), operationKey: "main", manager: env.manager,
                completion: log.handler("main"))
            target.setImage(
                with: env.url(ServedImages.small), options: .avoidAutoSetImage, operationKey: "background",
                manager: env.manager, completion: log.handler("background"))
            _ = try await log.result("background").get()
            #expect(target.loadingImageURL(operationKey: "main") == env.url("\(ServedImages.alpha)?gate=g"))
            env.server.openGate("g")
            #expect(try await log.result("main").get().image != nil)
        }
    }

    @Test("a request brings its transformer and loader options; its options decide the placeholder")
    func requestWithTransformerAndCredentials() async throws {
        try await withManager { env in
            let target = RecordingTarget()
            let log = CompletionLog()
            var loaderOptions = ImageLoaderOptions()
            loaderOptions.requestModifier = .bearer("target-token")
            let request = ImageRequest(
                url: env.url(ServedImages.photo), options: .delayPlaceholder,
                transformer: Resize(to: PixelSize(width: 32, height: 32), mode: .fill), loaderOptions: loaderOptions)
            target.setImage(with: request, placeholder: placeholder, manager: env.manager, completion: log.handler("a"))
            #expect(target.kinds == ["start"], "a delayed placeholder is not shown while loading")
            let result = try await log.result("a").get()
            #expect(result.image?.size == PixelSize(width: 32, height: 32))
            #expect(target.images.last! === result.image)
            let sent = env.server.stats.values(of: "Authorization", for: ServedImages.photo)
            #expect(sent == ["Bearer target-token"])
        }
    }
}

/// Progress values collected on the main actor.
@MainActor
final class ProgressBox {
    var values: [ImageProgress] = []
}
