export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchExpressions?: LabelSelectorRequirement[];
  matchLabels?: Record<string, string>;
}
