package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestUserTZ: vigil user add --tz gives the new user a time zone, and
// vigil user tz sets it, "" giving back the deployment's; a name that is
// no zone is refused, naming it, and changes nothing.
func TestUserTZ(t *testing.T) {
	data := newStoreDir(t)
	if code, out, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", "--tz", "Asia/Tokyo", "ken@example.com"); code != exitOK {
		t.Fatalf("add --tz: exit %d, %q, %q", code, out, errOut)
	}
	if z := storedUser(t, data, "ken@example.com").TimeZone; z != "Asia/Tokyo" {
		t.Errorf("added with --tz Asia/Tokyo: zone %q", z)
	}
	code, _, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", "--tz", "Mars/Olympus_Mons", "mo@example.com")
	if code != exitError || !strings.Contains(errOut, `--tz "Mars/Olympus_Mons" is not a time zone`) {
		t.Errorf("add --tz Mars/Olympus_Mons: exit %d, %q", code, errOut)
	}
	for _, tc := range []struct {
		name, zone string
		code       int
		out, err   string
		want       string // the stored zone after
	}{
		{"set", "Europe/Paris", exitOK, "ken@example.com now has the time zone Europe/Paris\n", "", "Europe/Paris"},
		{"unknown", "Nowhere", exitError, "", `vigil user tz: zone "Nowhere" is not a time zone`, "Europe/Paris"},
		{"Local", "Local", exitError, "", `zone "Local" is not a time zone`, "Europe/Paris"},
		{"the deployment's", "", exitOK, "ken@example.com now has the deployment's time zone\n", "", ""},
	} {
		code, out, errOut := runVigil(t, "", "user", "tz", "--data", data, "ken@example.com", tc.zone)
		if code != tc.code || out != tc.out || !strings.Contains(errOut, tc.err) {
			t.Errorf("%s: exit %d, %q, %q; want %d, %q, %q", tc.name, code, out, errOut, tc.code, tc.out, tc.err)
		}
		if z := storedUser(t, data, "ken@example.com").TimeZone; z != tc.want {
			t.Errorf("%s: zone %q, want %q", tc.name, z, tc.want)
		}
	}
	if code, _, errOut := runVigil(t, "", "user", "tz", "--data", data, "nobody@example.com", "UTC"); code != exitError || !strings.Contains(errOut, "no user nobody@example.com") {
		t.Errorf("unknown user: exit %d, %q", code, errOut)
	}
}

// TestServeUserTZ: vigil serve in UTC reads the dates of a user who set
// Asia/Tokyo (PATCH /api/v1/me) in Tokyo: From 12/24/2036 09:00 starts
// at midnight UTC, as the answer and the store say, and the sentinel is
// stored with its zone; GET /api/v1/me names it as the user's own.
func TestServeUserTZ(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	t.Setenv("VIGIL_TZ", "")
	d := startWebDaemon(t, "--tz", "UTC")
	c := &apiClient{t: t, base: d.base, token: d.addUser(t, "ken@example.com", "a password of ken")}
	var me struct {
		TimeZone          string
		EffectiveTimeZone string
	}
	c.want(200, "PATCH", "/api/v1/me", map[string]string{"timeZone": "Asia/Tokyo"}).json(t, &me)
	if me.TimeZone != "Asia/Tokyo" || me.EffectiveTimeZone != "Asia/Tokyo" {
		t.Errorf("PATCH /api/v1/me: %+v", me)
	}
	c.want(400, "PATCH", "/api/v1/me", map[string]string{"timeZone": "Asia/Nowhere"})
	var sen struct {
		ID        int64
		NextCheck time.Time
	}
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": xmas}).json(t, &sen)
	tokyoXmas := time.Date(2036, 12, 24, 0, 0, 0, 0, time.UTC)
	if !sen.NextCheck.Equal(tokyoXmas) {
		t.Errorf("the API answers its next check %s, want %s", sen.NextCheck.UTC(), tokyoXmas)
	}
	s, err := openData(t, d.dir).FindSentinelByID(context.Background(), sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if start, _ := storedStart(t, s); !start.Equal(tokyoXmas) || s.TimeZone != "Asia/Tokyo" {
		t.Errorf("stored: start %s in %q; want %s in Asia/Tokyo", start.UTC(), s.TimeZone, tokyoXmas)
	}
}

// TestUserListTZ: vigil user list --json gives each user's own time zone,
// "" for the deployment's. It gave none.
func TestUserListTZ(t *testing.T) {
	data := newStoreDir(t)
	for _, args := range [][]string{{"--tz", "Asia/Tokyo", "ken@example.com"}, {"ada@example.com"}} {
		args = append([]string{"user", "add", "--data", data, "--password-stdin"}, args...)
		if code, out, errOut := runVigil(t, "a long enough password\n", args...); code != exitOK {
			t.Fatalf("%q: exit %d, %q, %q", args, code, out, errOut)
		}
	}
	code, out, errOut := runVigil(t, "", "user", "list", "--data", data, "--json")
	if code != exitOK {
		t.Fatalf("user list: exit %d, %q", code, errOut)
	}
	zones := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var u struct {
			Email    string
			TimeZone *string
		}
		if err := json.Unmarshal([]byte(line), &u); err != nil || u.TimeZone == nil {
			t.Fatalf("%s: %v; want a timeZone", line, err)
		}
		zones[u.Email] = *u.TimeZone
	}
	if zones["ken@example.com"] != "Asia/Tokyo" || zones["ada@example.com"] != "" {
		t.Errorf("zones %v; want ken's Asia/Tokyo and ada's none", zones)
	}
}
