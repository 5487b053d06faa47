package main

import (
	"flag"
	"fmt"
	"strings"
)

// secretString defines a string flag whose value is never shown (a
// statedFlag, whose usage states where its default comes from). The flag
// package prints each flag's default in the usage text, on -h and after
// any mistyped flag, and the defaults of these come from the environment:
// a PostgreSQL DSN with its password, the webhook key.
func secretString(fs *flag.FlagSet, name, value, usage string) *string {
	return statedString(fs, name, value, usage)
}

// statedFlag is a string flag whose usage states its default, one taken
// from the environment ("(default $VIGIL_DATA or ./vigil-data)"): the flag
// package, which prints each flag's default value after its usage, would
// add a second one ("(default \"vigil-data\")"), or the variable's value,
// which read as two defaults that disagree.
type statedFlag struct{ p *string }

func (f statedFlag) String() string { return "" }

func (f statedFlag) Set(v string) error {
	*f.p = v
	return nil
}

// statedStringVar defines a statedFlag storing into p, which holds value
// until the flag is set; usage states the default.
func statedStringVar(fs *flag.FlagSet, p *string, name, value, usage string) {
	*p = value
	fs.Var(statedFlag{p}, name, usage)
}

// statedString is statedStringVar into a new string.
func statedString(fs *flag.FlagSet, name, value, usage string) *string {
	p := new(string)
	statedStringVar(fs, p, name, value, usage)
	return p
}

// parseBool reads a yes-or-no setting of the environment: 1, true, yes or
// on; 0, false, no, off or nothing. Anything else is an error rather than
// a guess: VIGIL_ALLOW_PRIVATE_NETWORKS=false must not let sentinels reach
// loopback because it is not empty.
func parseBool(name, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "", "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%s=%q: not a yes-or-no value (true, false, 1, 0, yes, no, on, off)", name, v)
}

// envBools reads the yes-or-no settings named from the environment, and
// fails on the first that is neither.
func envBools(env *environment, names ...string) (map[string]bool, error) {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		b, err := parseBool(n, env.getenv(n))
		if err != nil {
			return nil, err
		}
		out[n] = b
	}
	return out, nil
}

// envBool reads the yes-or-no setting name from the environment, def when
// it is unset or empty; one that is neither is an error, and def.
func envBool(env *environment, name string, def bool) (bool, error) {
	v := env.getenv(name)
	if strings.TrimSpace(v) == "" {
		return def, nil
	}
	b, err := parseBool(name, v)
	if err != nil {
		return def, err
	}
	return b, nil
}
