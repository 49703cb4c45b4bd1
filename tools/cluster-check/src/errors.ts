import { WeftError } from '@weft/errors'

/** A step of the cluster check that could not be carried out (as opposed to a check that ran and failed). */
export class ClusterCheckError extends WeftError {
  static override readonly codes = [
    'CLUSTER_HAPROXY_MISSING',
    'CLUSTER_NGINX_MISSING',
    'CLUSTER_PROCESS_FAILED',
    'CLUSTER_TIMEOUT',
    'CLUSTER_BAD_ANSWER',
    'CLUSTER_USAGE',
  ] as const
}
