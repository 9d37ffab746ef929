import AlarmScheduler
import CalendarModel

/// The language a notification's own words are in: its buttons, "missed",
/// the day and time. The title, location and notes are the item's, as
/// written. English, or Chinese in simplified or traditional characters,
/// for the people Chime's workday calendars are made for.
///
/// Chosen once when the daemon starts (`chimed --language`, else the
/// messages locale), not per notification: what a notification says does
/// not change with the environment of whoever asked for it.
public enum NotificationLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"
    case traditionalChinese = "zh-Hant"

    /// The language of a locale or language name: `zh_CN.UTF-8`, `zh-Hans`,
    /// `zh_SG` and `zh` are simplified Chinese; `zh_TW`, `zh_HK`, `zh_MO`
    /// and `zh-Hant` traditional; `en…`, `C` and `POSIX` English; nil for
    /// any other, which Chime has no words for.
    public init?(locale: String) {
        let name = locale.split(separator: ".").first.map { $0.split(separator: "@")[0] }.map(String.init) ?? ""
        let parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.lowercased() }
        switch parts.first {
        case "zh":
            let traditional: Set<String> = ["tw", "hk", "mo", "hant"]
            self = parts.dropFirst().contains(where: traditional.contains) ? .traditionalChinese : .simplifiedChinese
        case "en", "c", "posix": self = .english
        default: return nil
        }
    }

    /// The messages locale's language, as gettext finds it: `LC_ALL`, else
    /// `LC_MESSAGES`, else `LANG`; then, unless that is the C locale, the
    /// first language of `LANGUAGE` that Chime has words for. English when
    /// none is set or none is known.
    public init(environment: [String: String]) {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        guard !locale.isEmpty, locale != "C", locale != "POSIX", !locale.hasPrefix("C.") else {
            self = .english
            return
        }
        let preferred = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init) + [locale]
        self = preferred.lazy.compactMap(NotificationLanguage.init(locale:)).first ?? .english
    }

    private var isChinese: Bool { self != .english }

    /// One of three spellings: English, simplified, traditional.
    private func say(_ english: String, _ simplified: String, _ traditional: String) -> String {
        switch self {
        case .english: english
        case .simplifiedChinese: simplified
        case .traditionalChinese: traditional
        }
    }

    /// The summary of an item with no title (libnotify refuses an empty one).
    var untitled: String { say("(untitled)", "（无标题）", "（無標題）") }
    /// The buttons.
    var open: String { say("Open", "打开", "打開") }
    var done: String { say("Done", "完成", "完成") }
    var dismiss: String { say("Dismiss", "关闭", "關閉") }

    /// The Snooze button: `Snooze 10 min`, `10分钟后提醒`.
    func snooze(seconds: Int64) -> String {
        let (amount, unit): (Int64, (String, String, String)) =
            if seconds > 0, seconds % 3600 == 0 { (seconds / 3600, ("h", "小时", "小時")) }
            else if seconds > 0, seconds % 60 == 0 { (seconds / 60, ("min", "分钟", "分鐘")) }
            else { (seconds, ("s", "秒", "秒")) }
        return say("Snooze \(amount) \(unit.0)", "\(amount)\(unit.1)后提醒", "\(amount)\(unit.2)後提醒")
    }

    /// A late firing's first line: `missed, was due 08:50`.
    func missed(due when: String) -> String { say("missed, was due ", "已错过，原定 ", "已錯過，原定 ") + when }

    /// The line of a firing shown again after the daemon stopped while showing it.
    var interrupted: String {
        say("shown again: the daemon stopped while showing it", "再次显示：上次显示时 chimed 已停止", "再次顯示：上次顯示時 chimed 已停止")
    }

    /// A location firing's first line: `left Office at 17:32`, `17:32 离开 Office`.
    func crossing(leaving: Bool, place: String, at when: String) -> String {
        switch self {
        case .english: "\(leaving ? "left" : "arrived at") \(place) at \(when)"
        case .simplifiedChinese: "\(when) \(leaving ? "离开" : "到达") \(place)"
        case .traditionalChinese: "\(when) \(leaving ? "離開" : "到達") \(place)"
        }
    }

    /// A day: `Tue 1 Dec` (`Tue 1 Dec 2027` outside `today`'s year),
    /// `12月1日 周二` (`2027年12月1日 周三`).
    /// A day's date in the Chinese calendar, beside the time of an item
    /// that repeats by it: `(lunar 3/8)`, `（农历三月初八）`, `（農曆三月初八）`.
    func lunarDate(_ date: ChineseDate) -> String {
        switch self {
        case .english: "(lunar \(date.isLeapMonth ? "leap " : "")\(date.month)/\(date.day))"
        case .simplifiedChinese: "（" + date.lunarMonthAndDay + "）"
        case .traditionalChinese: "（農曆" + date.monthAndDay.replacingOccurrences(of: "腊", with: "臘").replacingOccurrences(of: "闰", with: "閏") + "）"
        }
    }

    func day(_ date: CivilDate, today: CivilDate) -> String {
        let weekday = date.weekday.rawValue
        guard isChinese else {
            let text = Self.weekdayNames[weekday] + " \(date.day) " + Self.monthNames[date.month - 1]
            return date.year == today.year ? text : text + " \(date.year)"
        }
        let year = date.year == today.year ? "" : "\(date.year)年"
        return year + "\(date.month)月\(date.day)日 " + say("", "周", "週") + Self.chineseWeekdays[weekday]
    }

    /// A notice's summary: `No holiday data for 2027 (cn)`, `缺少 2027 年的节假日数据（cn）`.
    func title(of notice: DaemonNotice) -> String {
        switch (self, notice) {
        case (.english, _): notice.title
        case (_, .missingHolidayData(let region, let year)): say("", "缺少 \(year) 年的节假日数据", "缺少 \(year) 年的節假日資料") + "（\(region)）"
        case (_, .holidayDataArrived(let region, let year, _, _)): say("", "\(year) 年的节假日数据已获取", "\(year) 年的節假日資料已取得") + "（\(region)）"
        case (_, .holidayDataChanged(let region, let year, _, _)): say("", "\(year) 年的节假日数据有变", "\(year) 年的節假日資料有變") + "（\(region)）"
        case (_, .syncConflicts(let count)): say("", "同步：\(count) 个项目在两端都被修改", "同步：\(count) 個項目在兩端都被修改")
        case (_, .calendarKeptWhole(let calendar)): "同步：保留了 \(calendar)"
        }
    }

    /// A notice's body: what it means, and what to do.
    func body(of notice: DaemonNotice) -> String {
        switch (self, notice) {
        case (.english, _): notice.body
        case (_, .missingHolidayData(_, let year)):
            say("", "在导入数据之前，\(year) 年的工作日规则按普通的一周计算；运行 'chime holidays update' 获取",
                "在匯入資料之前，\(year) 年的工作日規則按普通的一週計算；執行 'chime holidays update' 取得")
        case (_, .holidayDataArrived(_, let year, let offDays, let makeupWorkdays)),
             (_, .holidayDataChanged(_, let year, let offDays, let makeupWorkdays)):
            say("", "\(offDays) 天休息日，\(makeupWorkdays) 天调休补班；\(year) 年的工作日提醒按此计算，'chime holidays --year \(year)' 会列出",
                "\(offDays) 天休息日，\(makeupWorkdays) 天調休補班；\(year) 年的工作日提醒按此計算，'chime holidays --year \(year)' 會列出")
        case (_, .syncConflicts):
            say("", "保留服务器上的版本；Chime 的版本另存，'chime sync --status' 会列出",
                "保留伺服器上的版本；Chime 的版本另存，'chime sync --status' 會列出")
        case (_, .calendarKeptWhole):
            say("", "服务器上已没有它的任何项目，因此这里没有删除任何内容；如果是有意清空，'chime sync --allow-emptying' 也会清空这里",
                "伺服器上已沒有它的任何項目，因此這裡沒有刪除任何內容；如果是有意清空，'chime sync --allow-emptying' 也會清空這裡")
        }
    }

    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let chineseWeekdays = ["日", "一", "二", "三", "四", "五", "六"]
}
