import type { InfluencerPostRecord, PostEngagementRecord } from '../../models/InfluencerPost';
import { engagementOf } from './engagement';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** One post's performance (its latest engagement reading). */
export interface PostPerformance {
  id: string;
  platform: string;
  excerpt: string;
  published_at: string;
  topics: string[];
  engagement: number;
  views: number;
  /** Engagement per view (0 without views). */
  rate: number;
}

/** Mean performance of a group of posts. */
export interface GroupPerformance {
  key: string;
  posts: number;
  mean_engagement: number;
  mean_rate: number;
}

/** The creator's insights. */
export interface InfluencerInsights {
  posts: PostPerformance[];
  topics: GroupPerformance[];
  weekdays: GroupPerformance[];
  hours: GroupPerformance[];
  best_topics: GroupPerformance[];
  worst_topics: GroupPerformance[];
  trend: {
    direction: 'up' | 'down' | 'flat' | 'insufficient';
    slope_per_post: number;
    posts_measured: number;
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Performance per post (latest reading), per topic, per weekday and per hour of publication (UTC); the best and
 * worst topics by mean engagement (topics of at least one measured post); the trend: the least-squares slope of
 * engagement over the measured posts in publication order, "flat" within 5% of the mean per post.
 */
export function influencerInsights(
  posts: InfluencerPostRecord[],
  latest: Map<string, PostEngagementRecord>,
): InfluencerInsights {
  const measured = posts
    .filter((post) => latest.has(post._id.toHexString()))
    .map((post): PostPerformance & { at: Date } => {
      const reading = latest.get(post._id.toHexString()) as PostEngagementRecord;
      const engagement = engagementOf(reading);
      return {
        id: post._id.toHexString(),
        platform: post.platform,
        excerpt: post.text.length > 120 ? `${post.text.slice(0, 117)}...` : post.text,
        published_at: post.published_at.toISOString(),
        topics: post.topics,
        engagement,
        views: reading.views,
        rate: reading.views ? round(engagement / reading.views) : 0,
        at: post.published_at,
      };
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const group = (keyOf: (post: (typeof measured)[number]) => string[]) => {
    const groups = new Map<string, { n: number; engagement: number; rate: number }>();
    for (const post of measured) {
      for (const key of keyOf(post)) {
        const entry = groups.get(key) ?? { n: 0, engagement: 0, rate: 0 };
        entry.n += 1;
        entry.engagement += post.engagement;
        entry.rate += post.rate;
        groups.set(key, entry);
      }
    }
    return [...groups].map(([key, entry]) => ({
      key,
      posts: entry.n,
      mean_engagement: round(entry.engagement / entry.n),
      mean_rate: round(entry.rate / entry.n),
    }));
  };
  const topics = group((post) => post.topics).sort(
    (a, b) => b.mean_engagement - a.mean_engagement || a.key.localeCompare(b.key),
  );
  return {
    posts: measured.map(({ at: _at, ...post }) => post).reverse(),
    topics,
    weekdays: group((post) => [WEEKDAYS[post.at.getUTCDay()]]).sort(
      (a, b) => WEEKDAYS.indexOf(a.key) - WEEKDAYS.indexOf(b.key),
    ),
    hours: group((post) => [String(post.at.getUTCHours()).padStart(2, '0')]).sort((a, b) =>
      a.key.localeCompare(b.key),
    ),
    best_topics: topics.slice(0, 3),
    worst_topics: topics.length > 3 ? topics.slice(-3).reverse() : [],
    trend: trendOf(measured.map((post) => post.engagement)),
  };
}

function trendOf(values: number[]): InfluencerInsights['trend'] {
  if (values.length < 3)
    return { direction: 'insufficient', slope_per_post: 0, posts_measured: values.length };
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  const slope = den ? num / den : 0;
  const flat = Math.abs(slope) <= 0.05 * Math.max(1, Math.abs(meanY));
  return {
    direction: flat ? 'flat' : slope > 0 ? 'up' : 'down',
    slope_per_post: round(slope),
    posts_measured: n,
  };
}
