/// The `migrate-data` copy, written once against ``TransferStore``.
extension TransferStore {
    /// Copies users (with their links and passkeys), sessions, signing keys, settings, action codes and queued mails
    /// from this store into `target`, page by page in primary-key order, each page upserted in one target
    /// transaction.
    ///
    /// Idempotent: rows are upserted by primary key, so running it again (for example after an
    /// interruption) duplicates nothing and leaves the target equal to the source for every copied
    /// row. Rows the target has and the source does not are left alone. The target must already be
    /// migrated; abuse counters are not copied (see ``TransferTable``).
    ///
    /// Pages are read in separate transactions, so stop the servers writing to the source first;
    /// then verify with ``counts()`` on both sides over ``TransferTable/copiedCountKeys``.
    ///
    /// - Parameters:
    ///   - batchSize: rows per page (at least 1).
    ///   - progress: called after each page with the table name (a ``counts()`` key of the group's
    ///     primary table), the rows copied so far in that table and the source's row count.
    /// - Returns: rows copied per ``counts()`` key (users and provider links counted apart).
    public func copy(
        to target: any TransferStore, batchSize: Int = 500,
        progress: @Sendable (String, Int, Int) -> Void = { _, _, _ in }
    ) async throws -> [String: Int] {
        let limit = max(1, batchSize)
        let sourceCounts = try await counts()
        var copied: [String: Int] = [:]
        for table in TransferTable.allCases {
            for key in table.countKeys { copied[key] = 0 }
            let name = table.countKeys[0]
            let total = sourceCounts[name] ?? 0
            var cursor: String?
            while true {
                let batch = try await exportBatch(table, after: cursor, limit: limit)
                guard let last = batch.lastKey else { break }
                try await target.importBatch(batch)
                for (key, rows) in batch.rowCounts { copied[key, default: 0] += rows }
                progress(name, copied[name] ?? 0, total)
                cursor = last
                if batch.count < limit { break }
            }
        }
        return copied
    }
}
