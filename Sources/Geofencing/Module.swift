// Geofencing: distances, geofences and their states with hysteresis and
// dwell, the grid index that finds the fences near a fix, and position
// lines (plain, `geo:`, gpsd).
//
// Imports: CalendarModel, JSONValues (gpsd lines) and Foundation only. Never the store or the
// scheduler: it turns fixes into transitions, and the daemon decides what
// a transition fires.
