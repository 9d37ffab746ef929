import CalendarModel
import HolidayCalendars

/// What `chime workday --json` says of a day, and `chime agenda --json` of
/// the days that are not what their weekday says.
struct WorkdayJSON: Encodable {
    var date, weekday, region: String
    var workday: Bool
    /// `ordinary`, `weekend`, `holiday`, `makeup`, `leave`, `work`.
    var reason: String
    var ordinaryWeekOnly: Bool
    /// A day of the ordinary weekend worked: a notice's makeup workday, or a day of work added.
    var makeup: Bool
    /// The names of the holiday (a makeup workday's too), of the leave, of the day worked
    /// ('chime work'); each left out on other days.
    var holiday, leave, work: String?
    /// `morning` or `afternoon` for half a day of leave or of work; left out otherwise.
    var half: String?

    init(_ answer: WorkdayAnswer, region: String) {
        let date = answer.date
        (self.date, weekday, self.region) = (date.description, date.weekday.code, region)
        workday = answer.isWorkday
        ordinaryWeekOnly = answer.missingYear != nil
        makeup = answer.isMakeupWorkday
        switch answer.reason {
        case .ordinaryWorkday: reason = "ordinary"
        case .weekend: reason = "weekend"
        case .holiday(let name): (reason, holiday) = ("holiday", name)
        case .makeupWorkday(let name): (reason, holiday) = ("makeup", name)
        case .leave(let name, let half): (reason, leave, self.half) = ("leave", name, half?.rawValue)
        case .work(let name, let half): (reason, work, self.half) = ("work", name, half?.rawValue)
        }
    }
}
