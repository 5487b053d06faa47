package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// xmas is a sentinel whose From is 09:00 on 24 December 2036: 08:00 UTC
// in Paris (winter time).
const xmas = "Create Sentinel xmas Using http://a.example/ From 12/24/2036 09:00\n"

// parisXmas is xmas's From in Europe/Paris.
var parisXmas = time.Date(2036, 12, 24, 8, 0, 0, 0, time.UTC)

// storedStart returns the start the store keeps for the sentinel, from
// its checked form, and its next check.
func storedStart(t *testing.T, s *vigil.Sentinel) (start, next time.Time) {
	t.Helper()
	var checked struct{ Start time.Time }
	if err := json.Unmarshal(s.Spec, &checked); err != nil {
		t.Fatal(err)
	}
	return checked.Start, s.NextCheck
}

// TestServeTZ: vigil serve --tz Europe/Paris reads the dates of the
// sentinels saved through its API in Paris: From 12/24/2036 09:00 starts
// at 08:00 UTC, as the API answers and the store keeps it; GET
// /api/v1/me names the zone. They were read in UTC.
func TestServeTZ(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	t.Setenv("VIGIL_TZ", "")
	d := startWebDaemon(t, "--tz", "Europe/Paris")
	c := &apiClient{t: t, base: d.base, token: d.addUser(t, "paris@example.com", "a password of paris")}
	var sen struct {
		ID        int64
		NextCheck time.Time
	}
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": xmas}).json(t, &sen)
	if !sen.NextCheck.Equal(parisXmas) {
		t.Errorf("the API answers its next check %s, want %s", sen.NextCheck.UTC(), parisXmas)
	}
	var me struct{ TimeZone, EffectiveTimeZone string }
	c.want(200, "GET", "/api/v1/me", nil).json(t, &me)
	if me.TimeZone != "" || me.EffectiveTimeZone != "Europe/Paris" {
		t.Errorf("/api/v1/me: timeZone %q, effectiveTimeZone %q; want none of their own, Europe/Paris in effect", me.TimeZone, me.EffectiveTimeZone)
	}
	db := openData(t, d.dir)
	s, err := db.FindSentinelByID(context.Background(), sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if start, next := storedStart(t, s); !start.Equal(parisXmas) || !next.Equal(parisXmas) {
		t.Errorf("stored: start %s, next check %s; want both %s", start.UTC(), next.UTC(), parisXmas)
	}
}

// TestSentinelAddTZ: vigil sentinel add --tz (or $VIGIL_TZ) reads the
// dates of the files in that zone, as vigil sentinel check --tz does and
// vigil serve --tz: From 12/24/2036 09:00 in Paris is stored as 08:00
// UTC. sentinel add had no --tz, and read them in UTC.
func TestSentinelAddTZ(t *testing.T) {
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want time.Time
		zone string // the zone stored with the sentinel
	}{
		{"--tz", nil, []string{"--tz", "Europe/Paris"}, parisXmas, "Europe/Paris"},
		{"$VIGIL_TZ", map[string]string{"VIGIL_TZ": "Europe/Paris"}, nil, parisXmas, "Europe/Paris"},
		{"--tz over $VIGIL_TZ", map[string]string{"VIGIL_TZ": "America/New_York"}, []string{"--tz", "Europe/Paris"}, parisXmas, "Europe/Paris"},
		{"default", nil, nil, parisXmas.Add(time.Hour), "UTC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := writeFile(t, dir, "xmas.ssl", xmas)
			data := dir + "/data"
			args := append(append([]string{"sentinel", "add", "--data", data}, tc.args...), file)
			if code, out, errOut := runVigilEnv(t, tc.vars, args...); code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			st, err := sqlite.Open(context.Background(), data)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			sens, _, err := st.FindSentinels(context.Background(), vigil.SentinelFilter{})
			if err != nil || len(sens) != 1 {
				t.Fatalf("sentinels %v, %v; want one", sens, err)
			}
			if start, next := storedStart(t, sens[0]); !start.Equal(tc.want) || !next.Equal(tc.want) {
				t.Errorf("stored: start %s, next check %s; want both %s", start.UTC(), next.UTC(), tc.want)
			}
			if sens[0].TimeZone != tc.zone {
				t.Errorf("stored in zone %q, want %q, the one its dates were read in", sens[0].TimeZone, tc.zone)
			}
			// sentinel check agrees, with the same flag and variable.
			check := append(append([]string{"sentinel", "check", "--json"}, tc.args...), file)
			code, out, errOut := runVigilEnv(t, tc.vars, check...)
			var checked struct{ Start time.Time }
			if err := json.Unmarshal([]byte(out), &checked); code != exitOK || err != nil || !checked.Start.Equal(tc.want) {
				t.Errorf("sentinel check: exit %d, start %s (%v) %s; want %s", code, checked.Start.UTC(), err, errOut, tc.want)
			}
		})
	}
}

// TestTZRefused: a zone that is no IANA name stops the commands that read
// dates before they do anything, naming the flag, or the variable it
// came from.
func TestTZRefused(t *testing.T) {
	file := writeFile(t, t.TempDir(), "xmas.ssl", xmas)
	for _, tc := range []struct {
		vars map[string]string
		args []string
		want string
	}{
		{nil, []string{"serve", "--addr", "127.0.0.1:0", "--tz", "Mars/Olympus"}, `--tz "Mars/Olympus": "Mars/Olympus" is not an IANA time zone name; want an IANA name such as Europe/Paris`},
		{map[string]string{"VIGIL_TZ": "Paris"}, []string{"serve", "--addr", "127.0.0.1:0"}, `--tz "Paris" (from $VIGIL_TZ): "Paris" is not an IANA time zone name; want an IANA name such as Europe/Paris`},
		{nil, []string{"serve", "--addr", "127.0.0.1:0", "--tz", "localtime"}, `--tz "localtime": "localtime" is not an IANA time zone name`},
		{nil, []string{"sentinel", "add", "--tz", "Mars/Olympus", file}, `--tz "Mars/Olympus": "Mars/Olympus" is not an IANA time zone name`},
		{nil, []string{"sentinel", "add", "--tz", "posix/Europe/Paris", file}, `--tz "posix/Europe/Paris": "posix/Europe/Paris" is not an IANA time zone name`},
		{map[string]string{"VIGIL_TZ": "Paris"}, []string{"sentinel", "check", file}, `--tz "Paris" (from $VIGIL_TZ)`},
	} {
		vars := map[string]string{"VIGIL_DATA": t.TempDir()}
		for k, v := range tc.vars {
			vars[k] = v
		}
		code, out, errOut := runVigilEnv(t, vars, tc.args...)
		if code != exitError || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v %q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.vars, tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestSentinelAddOwnerTZ: vigil sentinel add without --tz reads the dates
// of an owner who has a zone of their own (vigil user tz) in it, as vigil
// serve does for that user, over $VIGIL_TZ; --tz still wins.
func TestSentinelAddOwnerTZ(t *testing.T) {
	const owner = "ken@example.com"
	tokyoXmas := time.Date(2036, 12, 24, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want time.Time
		zone string
	}{
		{"owner's zone", nil, nil, tokyoXmas, "Asia/Tokyo"},
		{"owner's zone over $VIGIL_TZ", map[string]string{"VIGIL_TZ": "Europe/Paris"}, nil, tokyoXmas, "Asia/Tokyo"},
		{"--tz over the owner's zone", nil, []string{"--tz", "Europe/Paris"}, parisXmas, "Europe/Paris"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data := newStoreDir(t)
			if code, out, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", "--tz", "Asia/Tokyo", owner); code != exitOK {
				t.Fatalf("user add: exit %d, %q, %q", code, out, errOut)
			}
			file := writeFile(t, dir, "xmas.ssl", xmas)
			args := append(append([]string{"sentinel", "add", "--data", data, "--owner", owner}, tc.args...), file)
			if code, out, errOut := runVigilEnv(t, tc.vars, args...); code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			st, err := sqlite.Open(context.Background(), data)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			sens, _, err := st.FindSentinels(context.Background(), vigil.SentinelFilter{})
			if err != nil || len(sens) != 1 {
				t.Fatalf("sentinels %v, %v; want one", sens, err)
			}
			if start, _ := storedStart(t, sens[0]); !start.Equal(tc.want) || sens[0].TimeZone != tc.zone {
				t.Errorf("stored: start %s in zone %q; want %s in %q", start.UTC(), sens[0].TimeZone, tc.want, tc.zone)
			}
		})
	}
}

// TestSentinelCheckOwnerTZ: vigil sentinel check, given the store, reads
// the dates of an owner who has a zone of their own in it, as vigil
// sentinel add does, over $VIGIL_TZ; --tz still wins. It read them in
// $VIGIL_TZ or UTC, and told another start than add stored.
func TestSentinelCheckOwnerTZ(t *testing.T) {
	const owner = "ken@example.com"
	tokyoXmas := time.Date(2036, 12, 24, 0, 0, 0, 0, time.UTC)
	data := newStoreDir(t)
	if code, out, errOut := runVigil(t, "a long enough password\n", "user", "add", "--data", data, "--password-stdin", "--tz", "Asia/Tokyo", owner); code != exitOK {
		t.Fatalf("user add: exit %d, %q, %q", code, out, errOut)
	}
	file := writeFile(t, t.TempDir(), "xmas.ssl", xmas)
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want time.Time
	}{
		{"owner's zone", nil, nil, tokyoXmas},
		{"owner's zone over $VIGIL_TZ", map[string]string{"VIGIL_TZ": "Europe/Paris"}, nil, tokyoXmas},
		{"--tz over the owner's zone", nil, []string{"--tz", "Europe/Paris"}, parisXmas},
		{"without the store", nil, []string{"--owner", "other@example.com"}, parisXmas.Add(time.Hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"sentinel", "check", "--json", "--data", data, "--owner", owner}
			if tc.name == "without the store" {
				args = []string{"sentinel", "check", "--json"}
			}
			args = append(append(args, tc.args...), file)
			code, out, errOut := runVigilEnv(t, tc.vars, args...)
			var checked struct{ Start time.Time }
			if err := json.Unmarshal([]byte(out), &checked); code != exitOK || err != nil || !checked.Start.Equal(tc.want) {
				t.Errorf("exit %d, start %s (%v) %s; want %s", code, checked.Start.UTC(), err, errOut, tc.want)
			}
		})
	}
}

// TestFileCheckerZones: the checker of sentinel add and sentinel check
// reads the files in the owner's zone, and takes the owner's stored
// sentinels that keep no zone (saved before sentinels kept theirs) as
// read in the deployment's (--tz), as vigil serve does. They were taken
// as read in the owner's zone.
func TestFileCheckerZones(t *testing.T) {
	ctx := context.Background()
	st, err := openStore(ctx, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u := &vigil.User{Email: "ken@example.com", Name: "Ken", PasswordHash: "x", TimeZone: "Asia/Tokyo"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	created := time.Now().UTC().Truncate(time.Second)
	for name, zone := range map[string]string{"legacy": "", "paris": "Europe/Paris"} {
		src := "Create Sentinel " + name + " Using http://a.example/ From 12/24/2036 09:00"
		f, err := spec.Parse("a.ssl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		ch, err := spec.NewChecker(created).Check(f.Sentinels[0])
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(ch)
		sen := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: created, TimeZone: zone}
		if err := st.CreateSentinel(ctx, sen); err != nil {
			t.Fatal(err)
		}
	}
	tz := &tzFlag{name: "America/New_York"} // the deployment's
	c, err := fileChecker(ctx, st, tz, u.Email)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Location.String(); got != "Asia/Tokyo" {
		t.Errorf("the files are read in %s, want the owner's Asia/Tokyo", got)
	}
	for name, want := range map[string]string{"legacy": "America/New_York", "paris": "Europe/Paris"} {
		if s := c.Lookup(name); s == nil || s.Location == nil || s.Location.String() != want {
			t.Errorf("stored sentinel %s: %+v; want it read in %s", name, s, want)
		}
	}
}
