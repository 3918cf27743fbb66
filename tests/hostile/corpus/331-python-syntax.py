def build(:
