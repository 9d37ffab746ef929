// JSONValues: `JSONValue`, the one strict JSON reader for text from outside
// (holiday-cn files, gpsd lines, control-socket requests), with the byte
// place of a fault and bounds on depth and size. Chime writes JSON through
// `Encodable` and Foundation's encoder; this is the reading side.
//
// Imports: nothing, not even Foundation (a first JSONSerialization use
// costs a cold `chime` a tenth of its start-up). Never another Chime module.
