package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil"
)

// userTZUsage is the usage of vigil user add --tz.
const userTZUsage = "the user's time `zone`, in which the dates they write in sentinels are read on the dashboard and the API: an IANA name such as Asia/Tokyo (default: none, the deployment's, vigil serve --tz)"

// userZone returns zone, the time zone given for a user, trimmed, or an
// error naming --tz if it is not one (vigil.CheckTimeZone).
func userZone(zone string) (string, error) {
	zone = strings.TrimSpace(zone)
	if err := vigil.CheckTimeZone("--tz", zone); err != nil {
		return "", err
	}
	return zone, nil
}

// runUserTZ is vigil user tz EMAIL ZONE: it sets the user's own time zone
// (vigil.User.TimeZone), what PATCH /api/v1/me and the form of the
// dashboard's tokens page set.
func runUserTZ(ctx context.Context, env *environment, args []string) (code int, err error) {
	fs := newSentinelFlagSet(env, "user tz", "EMAIL ZONE", "Tz sets the time zone of the user with EMAIL: the dates they write in\n"+
		"sentinels on the dashboard and through the API (From 12/24/2026 09:00)\n"+
		"are read in ZONE, an IANA name such as Asia/Tokyo, from then on; \"\"\n"+
		"gives them the deployment's (vigil serve --tz) again. A sentinel keeps\n"+
		"the zone it was saved in, and runs in it, until it is saved again. The\n"+
		"user's sessions go on.")
	sf := addStoreFlags(fs, env)
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 2); err != nil {
		return exitError, err
	}
	email, err := knownEmail(fs.Arg(0))
	if err != nil {
		return exitError, err
	}
	zone := strings.TrimSpace(fs.Arg(1))
	if err := vigil.CheckTimeZone("zone", zone); err != nil {
		return exitError, err
	}
	st, u, err := openUserStore(ctx, sf, email, true)
	if err != nil {
		return exitError, err
	}
	defer closeStore(st, &code, &err)
	if err := st.SetUserTimeZone(ctx, u.ID, zone); err != nil {
		return exitError, fmt.Errorf("user %s: %w", email, err)
	}
	if zone == "" {
		fmt.Fprintf(env.stdout, "%s now has the deployment's time zone\n", email)
	} else {
		fmt.Fprintf(env.stdout, "%s now has the time zone %s\n", email, zone)
	}
	return exitOK, nil
}
