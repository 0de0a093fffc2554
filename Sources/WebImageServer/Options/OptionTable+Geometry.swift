import WebImage

extension OptionTable {
    /// The options that shape the geometry, `resize` to `flip`, in the README's order.
    static let geometry: [OptionEntry] = [
        OptionEntry(
            names: ["resize", "rs"], changesResult: true, sample: ["fill", "300", "200", "1", "1", "so"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applyResize(args, to: &o) },
            write: { _ in nil }),
        OptionEntry(
            names: ["size", "s"], changesResult: true, sample: ["300", "200", "1"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applySize(args, to: &o) },
            write: { _ in nil }),
        OptionEntry(
            names: ["resizing_type", "rt"], changesResult: true, sample: ["fill"],
            apply: { args, o, _ throws(ImageServerError) in o.resizingType = try OptionsParser.resizingType(args) },
            write: { o in o.resizingType == .fit ? nil : "resizing_type:\(o.resizingType.rawValue)" }),
        .integer(["width", "w"], \.width, sample: "300", parse: OptionArguments.nonNegativeInteger),
        .integer(["height", "h"], \.height, sample: "200", parse: OptionArguments.nonNegativeInteger),
        .integer(["min-width", "mw"], \.minWidth, sample: "120", parse: OptionArguments.nonNegativeInteger),
        .integer(["min-height", "mh"], \.minHeight, sample: "80", parse: OptionArguments.nonNegativeInteger),
        OptionEntry(
            names: ["zoom", "z"], changesResult: true, sample: ["2", "0.5"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applyZoom(args, to: &o) },
            write: { o in
                guard o.zoomWidth != 1 || o.zoomHeight != 1 else { return nil }
                let width = ProcessingOptions.number(o.zoomWidth)
                return o.zoomWidth == o.zoomHeight
                    ? "zoom:\(width)" : "zoom:\(width):\(ProcessingOptions.number(o.zoomHeight))"
            }),
        .number(["dpr"], \.dpr, sample: "2", parse: OptionArguments.positiveFloat),
        .flag(["enlarge", "el"], \.enlarge),
        OptionEntry(
            names: ["extend", "ex"], changesResult: true, sample: ["1", "so", "5", "6"],
            apply: { args, o, _ throws(ImageServerError) in
                (o.extend, o.extendGravity) = try OptionsParser.extend("extend", args, current: o.extendGravity)
            },
            write: { o in
                guard o.extend || o.extendGravity != .center else { return nil }
                return "extend:\(o.extend ? 1 : 0):\(ProcessingOptions.gravity(o.extendGravity))"
            }),
        OptionEntry(
            names: ["extend_aspect_ratio", "extend_ar", "exar"], changesResult: true, sample: ["1", "ea"],
            apply: { args, o, _ throws(ImageServerError) in
                (o.extendAspectRatio, o.extendAspectRatioGravity) = try OptionsParser.extend(
                    "extend_aspect_ratio", args, current: o.extendAspectRatioGravity)
            },
            write: { o in
                guard o.extendAspectRatio || o.extendAspectRatioGravity != .center else { return nil }
                let placement = ProcessingOptions.gravity(o.extendAspectRatioGravity)
                return "extend_aspect_ratio:\(o.extendAspectRatio ? 1 : 0):\(placement)"
            }),
        OptionEntry(
            names: ["gravity", "g"], changesResult: true, sample: ["no", "10", "5"],
            apply: { args, o, _ throws(ImageServerError) in
                o.gravity = try OptionsParser.gravity("gravity", args, current: o.gravity, allowsSmart: true)
            },
            write: { o in o.gravity == .center ? nil : "gravity:\(ProcessingOptions.gravity(o.gravity))" }),
        OptionEntry(
            names: ["crop", "c"], changesResult: true, sample: ["100", "0.5", "fp", "0.25", "0.75"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applyCrop(args, to: &o) },
            write: { o in
                guard o.cropWidth != 0 || o.cropHeight != 0 || o.cropGravity != nil else { return nil }
                let size = "crop:\(ProcessingOptions.number(o.cropWidth)):\(ProcessingOptions.number(o.cropHeight))"
                return size + (o.cropGravity.map { ":" + ProcessingOptions.gravity($0) } ?? "")
            }),
        OptionEntry(
            names: ["trim", "t"], changesResult: true, sample: ["20", "ff0000", "1", "0"],
            apply: { args, o, _ throws(ImageServerError) in o.trim = try OptionsParser.trim(args, current: o.trim) },
            write: { o in
                guard let trim = o.trim else { return nil }
                let color = trim.color.map { Hex.string([$0.red, $0.green, $0.blue]) } ?? ""
                let equal = "\(trim.equalHorizontal ? 1 : 0):\(trim.equalVertical ? 1 : 0)"
                return "trim:\(ProcessingOptions.number(trim.threshold)):\(color):\(equal)"
            }),
        OptionEntry(
            names: ["padding", "pd"], changesResult: true, sample: ["1", "2", "3", "4"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applyPadding(args, to: &o) },
            write: { o in
                let padding = o.padding
                guard padding.isEnabled else { return nil }
                return "padding:\(padding.top):\(padding.right):\(padding.bottom):\(padding.left)"
            }),
        OptionEntry(
            names: ["rotate", "rot"], changesResult: true, sample: ["90"],
            apply: { args, o, _ throws(ImageServerError) in o.rotate = try OptionsParser.rotation(args) },
            write: { o in o.rotate == 0 ? nil : "rotate:\(o.rotate)" }),
        OptionEntry(
            names: ["flip", "fl"], changesResult: true, sample: ["1", "1"],
            apply: { args, o, _ throws(ImageServerError) in try OptionsParser.applyFlip(args, to: &o) },
            write: { o in
                guard o.flipHorizontal || o.flipVertical else { return nil }
                return "flip:\(o.flipHorizontal ? 1 : 0):\(o.flipVertical ? 1 : 0)"
            }),
    ]
}
