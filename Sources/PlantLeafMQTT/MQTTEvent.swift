import PlantLeafCore

/// A change in the publisher's link to the broker, as `MQTTPublisher.takeEvents()` reports it.
/// The values say what happened; front ends word them (and may add what to do about it).
public enum MQTTEvent: Sendable, Equatable {
    /// The broker accepted the connection.
    case connected(broker: String)
    /// An attempt to reach the broker failed before it answered; retried with the back-off
    /// `MQTTPublisher.reconnectDelays` gives.
    case cannotConnect(broker: String, reason: String)
    /// The broker answered and refused (bad user name or password, not authorised ...); retried.
    case refused(broker: String, reason: String)
    /// A connection that was up went away; retried.
    case lost(broker: String, reason: String)
    /// The broker sent a message though PlantLeaf subscribes to nothing (a broken or hostile
    /// broker): the connection was dropped, with whatever libmosquitto kept of it, and is retried.
    case unsolicitedMessage(broker: String)
    /// The TLS handshake failed: a wrong CA file or host name does not fix itself, so there is
    /// no retry.
    case tlsFailed(broker: String, reason: String)
    /// A message could not be handed to libmosquitto.
    case notPublished(topic: String, reason: String)
}
