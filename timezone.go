package vigil

import (
	"slices"
	"strings"
	"time"
)

// CheckTimeZone returns nil if name is a time zone a user or a sentinel
// may keep (User.TimeZone, Sentinel.TimeZone): a canonical IANA name
// (LoadTimeZone), such as Europe/Paris or UTC, or "" for the
// deployment's zone (vigil serve --tz). It returns an EINVALID error
// naming field otherwise.
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

// timeZoneAreas are the areas of the canonical IANA names (Area/Location,
// as Europe/Paris or America/Argentina/Buenos_Aires), which the Go
// release's own time/tzdata holds as every host's zoneinfo does.
var timeZoneAreas = []string{"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Etc", "Europe", "Indian", "Pacific"}

// LoadTimeZone returns the zone an IANA name names (time.LoadLocation).
// It takes only UTC and the names of an area of timeZoneAreas
// (Europe/Paris, Etc/GMT+3), and refuses the others, which name no one
// zone or only load from some hosts' files: "", "Local" (the zone of
// whatever machine runs Vigil), localtime, posixrules, Factory and the
// posix/ and right/ trees. A date would otherwise mean another instant,
// or none, on another machine.
func LoadTimeZone(name string) (*time.Location, error) {
	area, _, found := strings.Cut(name, "/")
	if len(name) > 100 || name != "UTC" && (!found || !slices.Contains(timeZoneAreas, area)) {
		return nil, Errorf(EINVALID, "%q is not an IANA time zone name", name)
	}
	return time.LoadLocation(name)
}
