package vigil

import "time"

// CheckTimeZone returns nil if name is a time zone a user or a sentinel
// may keep (User.TimeZone, Sentinel.TimeZone): an IANA name that
// time.LoadLocation knows, such as Europe/Paris or UTC, or "" for the
// deployment's zone (vigil serve --tz). It returns an EINVALID error
// naming field otherwise. "Local", the zone of whatever machine runs
// Vigil, is refused: a date would mean another instant on another
// machine.
func CheckTimeZone(field, name string) error {
	if name == "" {
		return nil
	}
	_, err := LoadTimeZone(name)
	if err != nil {
		return Errorf(EINVALID, "%s %q is not a time zone: want an IANA name such as Europe/Paris, or UTC", field, name)
	}
	return nil
}

// LoadTimeZone returns the zone an IANA name names (time.LoadLocation),
// refusing "" and "Local", which name no one zone.
func LoadTimeZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" || len(name) > 100 {
		return nil, Errorf(EINVALID, "%q is not an IANA time zone name", name)
	}
	return time.LoadLocation(name)
}
