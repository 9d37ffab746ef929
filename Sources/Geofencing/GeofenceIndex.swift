import Foundation

/// A spatial index of circles on the sphere, answering "which circles may
/// contain this point" with a few cell look-ups instead of a scan.
///
/// A grid cuts the sphere into rows of equal latitude height, and each row
/// into as many columns as keep its cells about as wide as they are high at
/// the row's edge nearest the equator (one column next to a pole). A circle
/// is filed under every cell that its latitude–longitude bounding box
/// touches; the box is the exact one of a spherical cap, with all longitudes
/// when the cap holds a pole, and columns are counted modulo the row, so the
/// antimeridian is an ordinary cell border.
///
/// There are several grids, each with cells eight times the size of the one
/// below, and a circle goes into the finest one where it touches at most
/// `maximumCellsPerEntry` cells: a 20 km circle among 100 m ones neither
/// fills thousands of small cells nor lands on a list every query scans. A
/// circle too big even for the coarsest grid goes on that list (the
/// fallback), which every query returns.
public struct GeofenceIndex<Key: Hashable & Sendable>: Sendable {
    struct Entry: Sendable {
        var centre: GeoPoint
        var radius: Double
        /// Nil for an entry on the fallback list.
        var level: Int?
        var cells: [Int64]
    }

    /// Degrees of latitude per row of the finest grid.
    public var cellSize: Double { grids[0].cellSize }
    public let maximumCellsPerEntry: Int
    private var grids: [Grid<Key>]
    private var fallback: [Key] = []
    private var entries: [Key: Entry] = [:]

    /// - Parameter cellSize: degrees of latitude per cell of the finest grid,
    ///   rounded so that a whole number of rows spans the poles; kept within
    ///   0.001…10.
    public init(cellSize: Double, maximumCellsPerEntry: Int = 64) {
        var size = cellSize.isFinite ? min(max(cellSize, 0.001), 10) : 1
        var grids = [Grid<Key>(cellSize: size)]
        while size < 20 {
            size *= 8
            grids.append(Grid(cellSize: min(size, 90)))
        }
        self.grids = grids
        self.maximumCellsPerEntry = max(1, maximumCellsPerEntry)
    }

    /// A cell size (degrees) for circles of these radii: twice the median
    /// radius, so that a typical circle touches about four cells and a
    /// point's cell holds only the circles close to it.
    public static func suggestedCellSize(radii: [Double]) -> Double {
        let sorted = radii.filter { $0.isFinite && $0 > 0 }.sorted()
        guard !sorted.isEmpty else { return 0.01 }
        return 2 * sorted[sorted.count / 2] / GeoPoint.earthRadius * 180 / .pi
    }

    public var count: Int { entries.count }

    /// How many entries each grid holds, finest first, and last how many are
    /// on the fallback list.
    public var entriesPerLevel: [Int] {
        var counts = Array(repeating: 0, count: grids.count + 1)
        for entry in entries.values { counts[entry.level ?? grids.count] += 1 }
        return counts
    }

    /// Files a circle under `key`, replacing what was there under it.
    public mutating func insert(_ key: Key, centre: GeoPoint, radius: Double) {
        remove(key)
        for level in grids.indices {
            if let covered = grids[level].cellKeys(centre: centre, radius: radius, maximum: maximumCellsPerEntry) {
                for cell in covered { grids[level].cells[cell, default: []].append(key) }
                entries[key] = Entry(centre: centre, radius: radius, level: level, cells: covered)
                return
            }
        }
        fallback.append(key)
        entries[key] = Entry(centre: centre, radius: radius, level: nil, cells: [])
    }

    public mutating func remove(_ key: Key) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        if let level = entry.level {
            for cell in entry.cells {
                grids[level].cells[cell]?.removeAll { $0 == key }
                if grids[level].cells[cell]?.isEmpty == true { grids[level].cells[cell] = nil }
            }
        } else {
            fallback.removeAll { $0 == key }
        }
    }

    /// Every key whose circle may contain `point`, and some that do not:
    /// the caller measures. Calls `body` once per key.
    public func forEachCandidate(near point: GeoPoint, _ body: (Key) -> Void) {
        for grid in grids where !grid.cells.isEmpty {
            if let found = grid.cells[grid.cellKey(point)] {
                for key in found { body(key) }
            }
        }
        for key in fallback { body(key) }
    }

    /// The keys whose circles contain `point` (distance ≤ radius).
    public func keys(containing point: GeoPoint) -> [Key] {
        var result: [Key] = []
        let here = SphericalPoint(point)
        forEachCandidate(near: point) { key in
            guard let entry = entries[key], SphericalPoint(entry.centre).distance(to: here) <= entry.radius else { return }
            result.append(key)
        }
        return result
    }
}

/// One grid of the index: the cells and the arithmetic that names them.
struct Grid<Key: Hashable & Sendable>: Sendable {
    let cellSize: Double
    private let columnsPerRow: [Int]
    var cells: [Int64: [Key]] = [:]

    init(cellSize size: Double) {
        let rows = Int((180 / size).rounded(.up))
        cellSize = 180 / Double(rows)
        columnsPerRow = (0..<rows).map { row in
            let low = -90 + Double(row) * 180 / Double(rows), high = low + 180 / Double(rows)
            let nearestEquator = low <= 0 && high >= 0 ? 0 : min(abs(low), abs(high))
            return max(1, Int(360 * cos(nearestEquator * .pi / 180) / (180 / Double(rows))))
        }
    }

    func row(_ latitude: Double) -> Int {
        min(columnsPerRow.count - 1, max(0, Int(((latitude + 90) / cellSize).rounded(.down))))
    }

    func column(_ longitude: Double, row: Int) -> Int {
        let columns = columnsPerRow[row]
        let index = Int(((longitude + 180) / (360 / Double(columns))).rounded(.down))
        return ((index % columns) + columns) % columns
    }

    func cellKey(_ point: GeoPoint) -> Int64 {
        let row = row(point.latitude)
        return Int64(row) << 32 | Int64(column(point.longitude, row: row))
    }

    /// The cells the circle's bounding box touches, or nil when there are
    /// more than `maximum` of them.
    func cellKeys(centre: GeoPoint, radius: Double, maximum: Int) -> [Int64]? {
        // A hair wider than the circle, so rounding in the box can only add cells.
        let angular = radius / GeoPoint.earthRadius * (1 + 1e-9) + 1e-12
        guard angular < .pi / 2 else { return nil }
        let angularDegrees = angular * 180 / .pi
        let north = centre.latitude + angularDegrees, south = centre.latitude - angularDegrees
        let holdsPole = north >= 90 || south <= -90
        var halfWidth = 180.0
        if !holdsPole {
            let ratio = sin(angular) / cos(centre.latitude * .pi / 180)
            halfWidth = ratio >= 1 ? 180 : asin(ratio) * 180 / .pi * (1 + 1e-9) + 1e-9
        }
        let firstRow = row(max(-90, south)), lastRow = row(min(90, north))
        var spans: [(row: Int, first: Int, count: Int)] = []
        var total = 0
        for row in firstRow...lastRow {
            let columns = columnsPerRow[row]
            let width = 360 / Double(columns)
            let span: (Int, Int)
            if halfWidth * 2 + width >= 360 {
                span = (0, columns)
            } else {
                // Unwrapped column numbers; taken modulo the row below.
                let first = Int(((centre.longitude - halfWidth + 180) / width).rounded(.down))
                let last = Int(((centre.longitude + halfWidth + 180) / width).rounded(.down))
                span = (first, last - first + 1)
            }
            total += span.1
            if total > maximum { return nil }
            spans.append((row, span.0, span.1))
        }
        var result: [Int64] = []
        result.reserveCapacity(total)
        for span in spans {
            let columns = columnsPerRow[span.row]
            for offset in 0..<span.count {
                let column = (((span.first + offset) % columns) + columns) % columns
                result.append(Int64(span.row) << 32 | Int64(column))
            }
        }
        return result
    }
}
