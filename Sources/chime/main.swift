import CalendarModel
import RecurrenceEngine
let zone = try! TimeZoneRules.named("America/New_York")
for text in ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=HOURLY;COUNT=5", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"] {
  let rule = try! RecurrenceRule(rfc5545: text)
  let start = LocalDateTime(parsing: text.contains("HOURLY") ? "2026-03-08T00:00:00" : "2024-02-29T08:50:00")!
  let r = Recurrence(rule: rule, start: start, timeZone: zone)
  print(rule, Array(r.occurrences().prefix(6)).map(\.rfc3339))
}
