# Fails to load: the file it requires does not exist, so RSpec runs none of its examples.
require_relative 'no_such_file'

RSpec.describe 'Totals' do
  it 'adds the prices' do
    expect(Totals.sum([1, 2])).to eq(3)
  end
end
