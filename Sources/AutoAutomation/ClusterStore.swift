import Foundation

/// What a store several daemons share adds to a run store: the daemons (nodes) with their leases, and which node
/// owns which time automation. Only the owner fires an automation; its claims carry its `Fence`, which the store
/// checks in the statement that claims, so a node that lost an automation — its lease ran out while it was paused,
/// or another node took it over — can't claim a fire of it, whatever it believes. Time is the database's: a lease
/// runs out at the database's clock, never a node's.
package protocol ClusterStore: RunStore {
    /// Where the store is, as its errors say it (a URL without its password).
    var path: String { get }
    /// Registers a node, with a lease of `lease` from now (the database's now).
    nonisolated(nonsending) func join(_ node: NodeInfo, lease: Duration) async throws(RunStoreError) -> NodeID
    /// Extends the node's lease to `lease` from now, and says what it reports (the oldest due fire it has not
    /// claimed yet). False when its lease had already run out: it may own nothing any more, and must join again.
    nonisolated(nonsending) func renew(_ node: NodeID, lease: Duration, oldestDue: Date?) async throws(RunStoreError) -> Bool
    /// Says which definition of each of its time automations the node has (`LoadedAutomation.definition`), replacing what
    /// it said before. Those in `imposing` it loaded since it last said so (at its start, or when their script changed):
    /// their definition becomes the store's, and a node that owned one of them with another definition loses it (its
    /// epoch grows, so its fence fails). A node fires only automations whose definition it shares with the store: during
    /// a rolling restart with an edited script, nodes with the old and the new one don't both fire it.
    nonisolated(nonsending) func define(_ definitions: [AutomationKey: String], imposing: Set<AutomationKey>, for node: NodeID)
        async throws(RunStoreError)
    /// Takes up to `count` of `automations` that no live node owns (none, or one whose lease ran out) and whose definition
    /// in the store is the one given, each with a new epoch: `FOR UPDATE SKIP LOCKED`, so nodes taking at once take
    /// different ones; those fewest live nodes can fire first. Nothing when the node's own lease ran out.
    nonisolated(nonsending) func acquire(_ automations: [AutomationKey: String], upTo count: Int, for node: NodeID) async throws(RunStoreError)
        -> [AutomationKey: Fence]
    /// Gives automations back (a node over its fair share, or one stopping), for another node to take.
    nonisolated(nonsending) func release(_ automations: [AutomationKey], from node: NodeID) async throws(RunStoreError)
    /// Removes the node: what it owns is released at once, and the others are told (`leave` is a stop, not a crash).
    nonisolated(nonsending) func leave(_ node: NodeID) async throws(RunStoreError)
    /// The live nodes (whose lease has not run out), and what changes when one joins, leaves or loads definitions: cheap
    /// enough for every heartbeat, so that `share` is worked out again only when it changed.
    nonisolated(nonsending) func shape() async throws(RunStoreError) -> ClusterShape
    /// The node's fair share of the time automations, given which live nodes have each one's definition.
    nonisolated(nonsending) func share(for node: NodeID) async throws(RunStoreError) -> NodeShare
    /// What `auto automations status` shows: the nodes (live ones and those that stopped lately) and the owners.
    nonisolated(nonsending) func status() async throws(RunStoreError) -> ClusterStatus
    /// Waits until another node announces a change (joined, left, released automations), or `timeout` passes.
    nonisolated(nonsending) func waitForChange(timeout: Duration) async
}

package typealias NodeID = Int64

/// What a node says of itself when it joins: the name people read in logs and `status` (`--node`, or the host's name),
/// where it runs, and which auto it is.
package struct NodeInfo: Sendable, Equatable {
    package let name: String
    package let host: String
    package let pid: Int32
    package let version: String
    package init(name: String, host: String, pid: Int32, version: String) {
        self.name = name
        self.host = host
        self.pid = pid
        self.version = version
    }
}

/// The live nodes as one heartbeat sees them: equal shapes mean no node joined, left or loaded definitions since.
package struct ClusterShape: Sendable, Equatable {
    package let live: Int
    /// The sum of the live nodes' ids: one leaving while another joins changes it.
    package let ids: Int64
    /// How many times the live nodes said which definitions they have, summed: each time one does, it grows.
    package let definitions: Int64
    package init(live: Int, ids: Int64, definitions: Int64) {
        self.live = live
        self.ids = ids
        self.definitions = definitions
    }
}

/// What a node should own: each automation it can fire counts one divided by the live nodes that can fire it (those
/// with the store's definition of it), and the sum is rounded up — with every node on the same scripts, the time
/// automations divided by the live nodes.
package struct NodeShare: Sendable, Equatable {
    package let count: Int
    /// The automations only this node can fire: it never hands them back, as no other node would take them.
    package let exclusive: Set<AutomationKey>
    /// The automations the store has as this node's.
    package let owned: Set<AutomationKey>
    package init(count: Int, exclusive: Set<AutomationKey>, owned: Set<AutomationKey>) {
        self.count = count
        self.exclusive = exclusive
        self.owned = owned
    }
}

/// A node's right to claim an automation's fires: given when the node acquired it, and checked by the store in the
/// claim. `epoch` grows each time the automation changes owner, so an older owner's fence no longer matches.
package struct Fence: Sendable, Hashable {
    package let node: NodeID
    package let epoch: Int64
    package init(node: NodeID, epoch: Int64) {
        self.node = node
        self.epoch = epoch
    }
}

/// The nodes and who owns what, as the store says at one instant (the database's).
package struct ClusterStatus: Sendable, Equatable {
    package struct Node: Sendable, Equatable {
        package let id: NodeID
        package let info: NodeInfo
        package let started: Date
        package let heartbeat: Date
        package let leaseUntil: Date
        /// When it stopped (`leave`); nil while it runs, or when it died without saying so (its lease then runs out).
        package let left: Date?
        /// The scheduled instant of the oldest fire due on it and not claimed yet, at its last heartbeat.
        package let oldestDue: Date?
        package init(id: NodeID, info: NodeInfo, started: Date, heartbeat: Date, leaseUntil: Date, left: Date?, oldestDue: Date?) {
            self.id = id
            self.info = info
            self.started = started
            self.heartbeat = heartbeat
            self.leaseUntil = leaseUntil
            self.left = left
            self.oldestDue = oldestDue
        }
    }
    package struct Ownership: Sendable, Equatable {
        package let automation: AutomationKey
        package let owner: NodeID?
        package let epoch: Int64
        package let since: Date?
        /// The store's definition of it (`LoadedAutomation.definition`): the one the node that loaded it last has.
        package let definition: String?
        /// The live nodes that have another definition of it, and so don't fire it.
        package let otherDefinition: [NodeID]
        package init(automation: AutomationKey, owner: NodeID?, epoch: Int64, since: Date?, definition: String? = nil,
                     otherDefinition: [NodeID] = []) {
            self.automation = automation
            self.owner = owner
            self.epoch = epoch
            self.since = since
            self.definition = definition
            self.otherDefinition = otherDefinition
        }
    }
    /// The database's now when the status was read.
    package let now: Date
    package let nodes: [Node]
    package let automations: [Ownership]

    /// Whether the node runs: it has not left, and its lease had not run out when the status was read.
    package func isLive(_ node: Node) -> Bool { node.left == nil && node.leaseUntil > now }

    /// The name of the node that owns an automation, with "(expired)" once its lease ran out; nil when no node owns it,
    /// or its owner is no longer among the nodes.
    package func ownerName(of ownership: Ownership) -> String? {
        guard let id = ownership.owner, let node = nodes.first(where: { $0.id == id }) else { return nil }
        return isLive(node) ? node.info.name : "\(node.info.name) (expired)"
    }
    package init(now: Date, nodes: [Node], automations: [Ownership]) {
        self.now = now
        self.nodes = nodes
        self.automations = automations
    }
}
