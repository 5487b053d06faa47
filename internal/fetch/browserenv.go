package fetch

import "strings"

// browserEnv returns the variables of environ (os.Environ's form,
// NAME=value) that the rendering browser gets: those it or its launcher
// reads to find its files, fonts, locale, time zone and display, and no
// other. The browser runs the scripts of foreign pages: a variable passed
// to it is one its processes hold, renderers included, where an exploit
// of one could read it. Vigil's own process holds secrets in its
// environment (VIGIL_ADMIN_PASSWORD, VIGIL_SMTP_PASSWORD, a database DSN
// with a password, VIGIL_PROXY with credentials, a cloud provider's keys):
// none of them is the browser's business. Proxy variables are dropped too:
// the browser's only proxy is the guard proxy it is given.
func browserEnv(environ []string) []string {
	var env []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if ok && browserVariable(name) {
			env = append(env, kv)
		}
	}
	return env
}

// browserVariable reports whether the browser gets the environment
// variable name (see browserEnv).
func browserVariable(name string) bool {
	switch name {
	case "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR",
		"DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
		"FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "LD_LIBRARY_PATH",
		"CHROME_DEVEL_SANDBOX": // the setuid sandbox's helper, where one is used
		return true
	}
	// The locale's categories and the XDG base directories (the browser's
	// caches and configuration, the runtime directory).
	return strings.HasPrefix(name, "LC_") || strings.HasPrefix(name, "XDG_")
}
