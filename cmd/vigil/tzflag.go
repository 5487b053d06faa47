package main

import (
	"context"
	"flag"
	"fmt"
	"time"
	_ "time/tzdata" // the zones of --tz where the system has no zoneinfo

	"github.com/vigil-web/vigil"
)

// tzUsage is the usage of --tz, the same on every command that reads the
// dates written in sentinels.
const tzUsage = "time `zone` of the dates written in sentinels (From 12/24/2026 09:00, and the clock that days, weeks and months added keep): an IANA name such as Europe/Paris; vigil serve's is the deployment's, for the users who set none of their own (vigil user tz); vigil sentinel add, and vigil sentinel check given the store, read an owner's own zone when --tz is not given; a sentinel is stored with the zone it was read in (default $VIGIL_TZ or UTC)"

// tzFlag is the --tz flag of the commands that read the dates written in
// sentinels (vigil serve, sentinel add, sentinel check): the zone they
// are local times in, $VIGIL_TZ or UTC unless given, so that a date means
// the same instant whichever of them reads it. vigil serve's is the
// deployment's: a user's own zone (vigil.User.TimeZone) wins over it.
type tzFlag struct {
	name string
	// env says the zone is $VIGIL_TZ's, the flag not given: its error
	// says so.
	env bool
	// given says --tz was on the command line: it wins over the owner's
	// own zone (vigil user tz), which wins over $VIGIL_TZ and UTC.
	given bool
}

func (f *tzFlag) String() string { return "" } // the usage states the default

func (f *tzFlag) Set(v string) error {
	f.name, f.env, f.given = v, false, true
	return nil
}

// addTZFlag defines --tz on fs, its default $VIGIL_TZ or UTC.
func addTZFlag(fs *flag.FlagSet, env *environment) *tzFlag {
	f := &tzFlag{name: "UTC"}
	if v := env.getenv("VIGIL_TZ"); v != "" {
		f.name, f.env = v, true
	}
	fs.Var(f, "tz", tzUsage)
	return f
}

// location returns the zone --tz names, or an error that names the flag
// (and $VIGIL_TZ when the zone came from it). Only the IANA
// names vigil.LoadTimeZone takes are: "Local" or localtime, the zone of
// whatever machine runs the command, would make a date mean another
// instant on another machine.
func (f *tzFlag) location() (*time.Location, error) {
	from := ""
	if f.env {
		from = " (from $VIGIL_TZ)"
	}
	loc, err := vigil.LoadTimeZone(f.name)
	if err != nil {
		return nil, fmt.Errorf("--tz %q%s: %v; want an IANA name such as Europe/Paris, or UTC", f.name, from, vigil.ErrorMessage(err))
	}
	return loc, nil
}

// ownerLocation returns the zone the dates of owner's sentinels are read
// in: --tz's when it was given, else the owner's own (vigil user tz) when
// the owner is in st and has one, else --tz's default ($VIGIL_TZ or UTC),
// as vigil serve reads them for that user.
func (f *tzFlag) ownerLocation(ctx context.Context, st vigil.Store, owner string) (*time.Location, error) {
	if !f.given && st != nil {
		u, err := findOwner(ctx, st, owner)
		switch {
		case err == nil && u.TimeZone != "":
			loc, err := vigil.LoadTimeZone(u.TimeZone)
			if err != nil {
				return nil, fmt.Errorf("owner %s: time zone %q: %w", owner, u.TimeZone, err)
			}
			return loc, nil
		case err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND:
			return nil, fmt.Errorf("owner %s: %w", owner, err)
		}
	}
	return f.location()
}
