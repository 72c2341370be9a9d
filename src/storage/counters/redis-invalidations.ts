// Cache invalidation through Redis pub/sub: a published key reaches this process's listeners at
// once and every other process's as soon as Redis relays it. Pub/sub keeps nothing for a process
// that is disconnected at the time, so every cache that listens also bounds its entries' age.
import type { Redis } from 'ioredis';
import { LocalInvalidations, type Invalidations } from './invalidations.js';

export class RedisInvalidations implements Invalidations {
  private readonly local = new LocalInvalidations();

  /**
   * `subscriber` is a connection of its own (a subscribed connection runs no other command);
   * channels are `prefix` + the topic.
   */
  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly onUnavailable: (err: unknown) => void,
  ) {
    subscriber.on('message', (channel: string, key: string) => {
      if (channel.startsWith(prefix)) this.local.publish(channel.slice(prefix.length), key);
    });
  }

  publish(topic: string, key: string): void {
    this.local.publish(topic, key);
    this.redis.publish(this.prefix + topic, key).catch(this.onUnavailable);
  }

  subscribe(topic: string, listener: (key: string) => void): void {
    this.local.subscribe(topic, listener);
    this.subscriber.subscribe(this.prefix + topic).catch(this.onUnavailable);
  }
}
