import HearthCore
import SQLiteNIO

/// Which SQLite errors mean "the storage is unavailable".
enum SQLiteFailure {
    /// `error` unchanged, unless it is an SQLite I/O-type failure (disk, file, lock, corruption,
    /// out of space or memory), which becomes `HearthError(.storageUnavailable)`. Constraint,
    /// syntax and other errors, and every non-SQLite error, pass through untouched.
    static func translate(_ error: any Error) -> any Error {
        guard let sqliteError = error as? SQLiteError, isUnavailability(sqliteError.reason) else { return error }
        // SQLite messages name files and constraints, never bound values.
        return HearthError(.storageUnavailable, reason: "SQLite: \(sqliteError.reason)", underlying: sqliteError)
    }

    static func isUnavailability(_ reason: SQLiteError.Reason) -> Bool {
        switch reason {
        case .ioError, .ioErrorFailedRead, .ioErrorIncompleteRead, .ioErrorFailedWrite, .ioErrorFailedSync,
            .ioErrorFailedDirSync, .ioErrorFailedTruncate, .ioErrorFailedStat, .ioErrorFailedUnlock,
            .ioErrorFailedReadLock, .ioErrorFailedDelete, .ioErrorNoMemory, .ioErrorFailedAccess,
            .ioErrorFailedLockCheck, .ioErrorFailedAdvisoryLock, .ioErrorFailedClose, .ioErrorFailedSharedMemOpen,
            .ioErrorFailedSharedMemSize, .ioErrorFailedSharedMemMap, .ioErrorFailedDeleteNonexistent,
            .ioErrorFailedMemoryMap, .ioErrorCantFindTempdir, .ioErrorCygwinPath, .ioErrorBadDataChecksum,
            .ioErrorCorruptedFilesystem:
            true
        case .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .cantOpenCygwinPath, .cantOpenUnfollowedSymlink:
            true
        case .corrupt, .corruptVirtualTable, .corruptSequenceSchema, .corruptIndex, .notADatabase:
            true
        case .full, .noLFS, .noMemory, .proto, .permission:
            true
        case .readOnly, .readonlyInRecovery, .readonlyCantLock, .readonlyInRollback, .readonlyBackingMoved,
            .readonlyDirectory:
            true
        case .busy, .busyInRecovery, .busyInSnapshot, .busyTimeout, .locked, .lockedBySharedCache:
            true
        default:
            false
        }
    }
}
