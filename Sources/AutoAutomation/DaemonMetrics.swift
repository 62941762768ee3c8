import CoreMetrics
import Foundation

/// What a daemon tells an operator's monitoring, through swift-metrics: fires and runs by automation and outcome,
/// how late each fire started and how long its claim took (histograms), and the runs going and waiting. Made with a
/// factory of its own (`auto daemon --metrics` gives Prometheus's), so that daemons in one process, as in tests,
/// never share counts; the default records nothing.
package struct DaemonMetrics: Sendable {
    let factory: any MetricsFactory

    /// Whether anything reads the metrics: counting the runs of every automation is left out when nothing does.
    let isRecording: Bool

    package init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
        isRecording = !(factory is NOOPMetricsHandler)
    }

    /// A fire claimed, and how long after its scheduled instant it starts.
    func fired(_ fire: Fire, lag: TimeInterval) {
        let kind = fire.manual ? "manual" : fire.files != nil ? "file" : fire.caughtUp ? "caught_up" : "scheduled"
        Counter(label: "auto_fires_total", dimensions: [("automation", fire.automation.name), ("kind", kind)], factory: factory).increment()
        // A file fire is due when its event comes, not at an instant of a schedule: its lag says nothing of the clock.
        guard fire.files == nil, !fire.manual else { return }
        CoreMetrics.Timer(label: "auto_fire_lag_seconds", dimensions: [], factory: factory).recordNanoseconds(Int64(max(0, lag) * 1e9))
    }

    /// A claim of `count` fires in one transaction, and how long it took.
    func claimed(_ count: Int, in duration: Duration) {
        CoreMetrics.Timer(label: "auto_claim_seconds", dimensions: [], factory: factory).recordNanoseconds(Self.nanoseconds(duration))
    }

    /// A fire recorded without a run: missed, disabled, or turned away by the automation's mode.
    func notRun(_ fire: Fire, as outcome: RunOutcomeKind) {
        Counter(label: "auto_fires_not_run_total", dimensions: [("automation", fire.automation.name), ("outcome", outcome.rawValue)],
                factory: factory).increment()
    }

    /// A run's end: its outcome, and how long it ran.
    func ended(_ automation: AutomationKey, _ outcome: RunOutcomeKind, after duration: Duration) {
        Counter(label: "auto_runs_total", dimensions: [("automation", automation.name), ("outcome", outcome.rawValue)], factory: factory).increment()
        CoreMetrics.Timer(label: "auto_run_seconds", dimensions: [], factory: factory).recordNanoseconds(Self.nanoseconds(duration))
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// In a cluster, automations this node took (`acquired`), handed back (`released`), or lost (`lost`: with its lease, or to a node that loaded another definition).
    func ownershipChanged(_ change: String, count: Int) {
        guard count > 0 else { return }
        Counter(label: "auto_lease_changes_total", dimensions: [("change", change)], factory: factory).increment(by: count)
    }

    /// In a cluster, the automations this node owns and the live nodes it counts.
    func owned(_ count: Int, liveNodes: Int) {
        Meter(label: "auto_automations_owned", dimensions: [], factory: factory).set(count)
        Meter(label: "auto_nodes_live", dimensions: [], factory: factory).set(liveNodes)
    }

    /// The runs going and the fires waiting for one to end (`mode queued`), over every automation.
    func queues(running: Int, queued: Int) {
        Meter(label: "auto_runs_running", dimensions: [], factory: factory).set(running)
        Meter(label: "auto_fires_queued", dimensions: [], factory: factory).set(queued)
    }
}
