//go:build !unix

package main

// syncDir does nothing where a directory cannot be synced (Windows, where
// a rename is durable once it returns).
func syncDir(string) error { return nil }
