package boltkv

import (
	"syscall"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// ReleaseMap drops the pages of bbolt's memory map from this process's
// resident set (madvise MADV_DONTNEED). The map is a read-only shared map
// of the file, so the pages stay in the page cache and come back on the
// next read; what goes is their share of the process's RSS, which otherwise
// grows with the file during a long build. The read transaction keeps
// bbolt from remapping meanwhile.
func ReleaseMap(db *bolt.DB) {
	_ = db.View(func(tx *bolt.Tx) error {
		info := db.Info()
		if info == nil || info.Data == 0 || tx.Size() <= 0 {
			return nil
		}
		mem := unsafe.Slice((*byte)(unsafe.Add(nil, info.Data)), tx.Size())
		return syscall.Madvise(mem, syscall.MADV_DONTNEED)
	})
}
