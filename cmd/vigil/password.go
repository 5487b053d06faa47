package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/web"
)

// The passwords vigil user add and vigil user passwd set: the rules are
// internal/web's (admin.go), shared with the dashboard's Users page.
const (
	// minPasswordLength is the fewest characters (runes) a password
	// given on standard input may have; a generated one has 24.
	minPasswordLength = web.MinPasswordLength
	// maxPasswordBytes bounds a password read from standard input.
	maxPasswordBytes = web.MaxPasswordBytes
)

// readPassword returns the first line of r, its line ending ("\n" or
// "\r\n") stripped, as a password: one that a script pipes in (printf
// '%s\n' "$pw" | vigil user add ...) without it showing in the process
// list or the shell's history. Vigil never prints nor logs it (typed at
// a terminal, the terminal shows it).
func readPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReaderSize(io.LimitReader(r, maxPasswordBytes+2), 64).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("password from standard input: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", errors.New("password from standard input: empty first line")
	}
	if err := web.CheckNewPassword(line); err != nil {
		return "", fmt.Errorf("password from standard input: %s", vigil.ErrorMessage(err))
	}
	return line, nil
}

// newPassword returns the password given on standard input (fromStdin),
// or a generated one (web.GeneratePassword) with generated true, and its
// stored form.
func newPassword(env *environment, fromStdin bool) (password, hash string, generated bool, err error) {
	typed := ""
	if fromStdin {
		if typed, err = readPassword(env.stdin); err != nil {
			return "", "", false, err
		}
	}
	return web.NewPassword(typed)
}

// showPassword prints a generated password, the one time it is shown.
func showPassword(w io.Writer, password string) {
	fmt.Fprintf(w, "password: %s (shown only now)\n", password)
}
