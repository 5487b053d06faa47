package main

import (
	"fmt"
	"net/mail"
	"strconv"
	"time"

	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/notify/email"
	"github.com/vigil-web/vigil/markup"
)

// maxPageSizeMiB is the largest --max-page-size: the parser's own cap on
// a document (markup.DefaultMaxBytes), past which a page fetched would
// not be read.
const maxPageSizeMiB = markup.DefaultMaxBytes >> 20

// fetchOptions are the fetcher's options of the flags checked
// (checkValues), without a renderer.
func (c *serveConfig) fetchOptions() fetch.Options {
	return fetch.Options{AllowPrivateNetworks: c.allowPrivate, IgnoreRobots: c.ignoreRobots, HostDelay: c.hostDelay,
		HostConcurrency: c.hostConc, TotalTimeout: c.fetchTimeout, Proxy: c.proxy, NoProxy: c.noProxy,
		MaxDecodedSize: c.maxPageSize,
		TooLargeHint:   fmt.Sprintf("raise it with --max-page-size (now %d MiB)", c.maxPageSize>>20)}
}

// checkValues refuses the counts and durations of vigil serve that it
// cannot use, before anything starts, naming the flag, the value and what
// is wanted. The services below take 0 or less as "the default", which
// turned --workers 0 into 16 without a word: here a flag's 0 is either
// refused or means what its help says (--compare-memory, --failure-notice,
// --host-delay, --site-fresh). given reports whether a flag was set on the
// command line: the defaults of --min-interval, --max-interval and
// --initial-interval follow the ones given (--max-interval 30s alone
// lowers --min-interval to 30s), values given together that clash are
// refused. The email flags are checked with or without --smtp-host.
func (c *serveConfig) checkValues(given func(name string) bool) error {
	for _, f := range []struct {
		name string
		v    int
	}{
		{"workers", c.workers},
		{"host-concurrency", c.hostConc},
		{"max-attempts", c.maxAttempts},
	} {
		if f.v < 1 {
			return fmt.Errorf("--%s %d: want 1 or more", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    time.Duration
	}{
		{"min-interval", c.minInterval},
		{"max-interval", c.maxInterval},
		{"initial-interval", c.initInterval},
		{"lease", c.lease},
		{"poll", c.poll}, // time.After(0) in the idle loops would spin on the store
		{"fetch-timeout", c.fetchTimeout},
		{"retry-base", c.retryBase},
	} {
		if f.v <= 0 {
			return fmt.Errorf("--%s %v: want a duration greater than 0", f.name, f.v)
		}
	}
	switch {
	case c.hostDelay < 0:
		return fmt.Errorf("--host-delay %v: want 0 or more", c.hostDelay)
	case c.compareMemory < 0:
		return fmt.Errorf("--compare-memory %d: want 0 (no bound) or more", c.compareMemory)
	case c.failureNotice < 0:
		return fmt.Errorf("--failure-notice %v: want 0 (never) or more", c.failureNotice)
	case c.notificationRetention < 0:
		return fmt.Errorf("--notification-retention %v: want 0 (keep them all) or more", c.notificationRetention)
	}
	// The interval flags' defaults follow those given; values given
	// together that clash are refused.
	if c.maxInterval < c.minInterval {
		switch {
		case given("max-interval") && given("min-interval"):
			return fmt.Errorf("--max-interval %v: want at least --min-interval (%v)", c.maxInterval, c.minInterval)
		case given("max-interval"):
			c.minInterval = c.maxInterval
		default:
			c.maxInterval = c.minInterval
		}
	}
	if given("initial-interval") {
		if c.initInterval < c.minInterval && !given("min-interval") {
			c.minInterval = c.initInterval
		}
		if c.initInterval > c.maxInterval && !given("max-interval") {
			c.maxInterval = c.initInterval
		}
		if c.initInterval < c.minInterval || c.initInterval > c.maxInterval {
			return fmt.Errorf("--initial-interval %v: want between --min-interval (%v) and --max-interval (%v)", c.initInterval, c.minInterval, c.maxInterval)
		}
	}
	c.initInterval = min(max(c.initInterval, c.minInterval), c.maxInterval)
	// A value not given on the command line came from the environment:
	// its variable is named, as no flag was typed.
	from := func(name, variable string) string {
		if given(name) {
			return ""
		}
		return " (from $" + variable + ")"
	}
	if c.smtpPort != "" {
		// Else zero: the email package's port for the TLS mode.
		port, err := strconv.Atoi(c.smtpPort)
		if err != nil || port < 1 || port > 65535 {
			return fmt.Errorf("--smtp-port %q%s: want a port from 1 to 65535", c.smtpPort, from("smtp-port", "VIGIL_SMTP_PORT"))
		}
		c.smtp.Port = port
	}
	size, err := strconv.Atoi(c.maxPage)
	if err != nil || size < 1 || size > maxPageSizeMiB {
		return fmt.Errorf("--max-page-size %q%s: want a whole number of MiB from 1 to %d", c.maxPage, from("max-page-size", "VIGIL_MAX_PAGE_SIZE"), maxPageSizeMiB)
	}
	c.maxPageSize = int64(size) << 20
	// The email settings are checked whether --smtp-host is given or
	// not: a mistyped mode or sender was taken without a word until a
	// start that set the host, and then refused without the flag's name.
	if !c.smtp.TLS.Known() {
		return fmt.Errorf("--smtp-tls %q%s: want %s", c.smtp.TLS, from("smtp-tls", "VIGIL_SMTP_TLS"), email.TLSModes)
	}
	if _, err := mail.ParseAddress(c.smtp.From); err != nil && c.smtp.From != "" {
		return fmt.Errorf("--smtp-from %q%s: want an email address, such as Vigil <vigil@example.org>", c.smtp.From, from("smtp-from", "VIGIL_SMTP_FROM"))
	}
	return nil
}
