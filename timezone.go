package vigil

import (
	"slices"
	"strings"
	"time"
)

// CheckTimeZone returns nil if name is a time zone a user or a sentinel
// may keep (User.TimeZone, Sentinel.TimeZone): an IANA name
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

// hostOnlyZones are names time.LoadLocation may load from a host's
// zoneinfo files that name no zone of their own, or one that differs
// from host to host: the host's zone under another name, the rules of a
// POSIX TZ string, a placeholder.
var hostOnlyZones = []string{"Local", "localtime", "posixrules", "Factory"}

// LoadTimeZone returns the zone an IANA name names (time.LoadLocation):
// a canonical name (Europe/Paris, Etc/GMT+3, UTC) or one of the IANA
// links to one (US/Eastern, GMT, Japan). It refuses "" and the names that
// only load from some hosts' files or name another zone on another
// machine: Local and localtime (the zone of whatever machine runs Vigil),
// posixrules, Factory and the posix/ and right/ trees. A date would
// otherwise mean another instant, or none, elsewhere.
func LoadTimeZone(name string) (*time.Location, error) {
	if name == "" || len(name) > 100 || slices.Contains(hostOnlyZones, name) ||
		strings.HasPrefix(name, "posix/") || strings.HasPrefix(name, "right/") {
		return nil, Errorf(EINVALID, "%q is not an IANA time zone name", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, Errorf(EINVALID, "%q is not an IANA time zone name", name)
	}
	return loc, nil
}

// ZoneOr returns the zone name names (LoadTimeZone), or fallback when name
// is "" (a user or sentinel without a zone of its own: the deployment's),
// UTC when fallback is nil too. A name LoadTimeZone refuses is its error.
func ZoneOr(name string, fallback *time.Location) (*time.Location, error) {
	if name == "" {
		if fallback == nil {
			return time.UTC, nil
		}
		return fallback, nil
	}
	return LoadTimeZone(name)
}
