//go:build !linux

package boltkv

import bolt "go.etcd.io/bbolt"

func ReleaseMap(*bolt.DB) {}
